// The database schema: every row belongs to one app. Exactly-once writes are
// guarded by constraints (idempotency keys, ledger grant keys, status guards).
import { sql } from 'drizzle-orm';
import {
  bigint,
  foreignKey,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type PgColumnBuilderBase,
} from 'drizzle-orm/pg-core';
import type { GrantLimits } from '@/lib/contract/app';
import type { Campaign } from '@/lib/contract/campaign';
import type { Mission } from '@/lib/contract/mission';
import type { AggregateState } from '@/lib/contract/mission-aggregate';
import type { ThemePreset } from '@/lib/contract/theme';
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { CurrencyDefinition, ItemDefinition } from '@/lib/contract/economy';
import type { CatalogChange } from '@/lib/contract/release';
import { STAFF_ROLES } from '@/lib/contract/staff';

const ms = (name: string) => bigint(name, { mode: 'number' });

/**
 * One column per field of a contract entity: a field without a column (or a
 * column without a field) fails type-checking. lib/catalog/convert.ts checks
 * that the columns' types are the fields' types.
 */
type ColumnsOf<T> = { [K in keyof T]-?: PgColumnBuilderBase };

export const apps = pgTable('apps', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** sha256 of the (high-entropy, generated) app secret; never the secret itself. */
  secretHash: text('secret_hash').notNull(),
  /** HMAC key of inbound webhooks: kept as is because verifying an HMAC needs it. */
  webhookSecret: text('webhook_secret').notNull(),
  /** The webhook secret before the last rotation, still accepted until previous_webhook_secret_expires_at. */
  previousWebhookSecret: text('previous_webhook_secret'),
  previousWebhookSecretExpiresAt: ms('previous_webhook_secret_expires_at'),
  createdAt: ms('created_at').notNull(),
  secretRotatedAt: ms('secret_rotated_at').notNull(),
  /** The signed webhook's limit in events per minute set by an admin; null: the default (lib/contract/app.ts). */
  webhookEventsPerMinute: integer('webhook_events_per_minute'),
  /** The support role's grant limits per currency (lib/contract/app.ts GrantLimits); null: the defaults. */
  grantLimits: jsonb('grant_limits').$type<GrantLimits>(),
  /** The two-person rule: a publish of the draft waits for another editor's or admin's approval (lib/services/drafts/approve-draft.ts). */
  requireApproval: boolean('require_approval').notNull().default(false),
});
export type AppRow = typeof apps.$inferSelect;

const missionFields = {
  id: text('id').notNull(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  criteria: jsonb('criteria').$type<Mission['criteria']>().notNull(),
  reward: jsonb('reward').$type<Mission['reward']>().notNull(),
  /** The bundle (issue 39 §2), `reward` its first; NULL on a row written before bundles (its bundle is `reward` alone). */
  rewards: jsonb('rewards').$type<NonNullable<Mission['rewards']>>(),
  campaignId: text('campaign_id'),
  expiresAt: ms('expires_at'),
  iconUrl: text('icon_url'),
  prerequisites: jsonb('prerequisites').$type<Mission['prerequisites']>().notNull().default([]),
  archived: boolean('archived').notNull().default(false),
  audience: jsonb('audience').$type<NonNullable<Mission['audience']>>(),
} satisfies ColumnsOf<Mission>;

export const missions = pgTable(
  'missions',
  {
    appId: text('app_id').notNull().references(() => apps.id, { onDelete: 'cascade' }),
    ...missionFields,
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
    /** Bumped by every write: the console's optimistic concurrency (a stale write answers 409). */
    version: integer('version').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.appId, t.id] }), index('missions_campaign_idx').on(t.appId, t.campaignId)],
);
export type MissionRow = typeof missions.$inferSelect;

/** missionIds is not stored: it is derived from the missions naming the campaign. */
const campaignFields = {
  id: text('id').notNull(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  startAt: ms('start_at').notNull(),
  endAt: ms('end_at').notNull(),
  theme: jsonb('theme').$type<NonNullable<Campaign['theme']>>(),
  bannerUrl: text('banner_url').notNull().default(''),
  archived: boolean('archived').notNull().default(false),
  themeId: text('theme_id'),
  audience: jsonb('audience').$type<NonNullable<Campaign['audience']>>(),
  budget: jsonb('budget').$type<NonNullable<Campaign['budget']>>(),
} satisfies ColumnsOf<Omit<Campaign, 'missionIds'>>;

/** Named theme presets of an app; campaigns refer to them by theme_id. */
const themeFields = {
  id: text('id').notNull(),
  name: text('name').notNull(),
  primaryColor: text('primary_color').notNull(),
  accentColor: text('accent_color'),
  backgroundColor: text('background_color'),
  textColor: text('text_color'),
} satisfies ColumnsOf<ThemePreset>;

export const themes = pgTable(
  'themes',
  {
    appId: text('app_id').notNull().references(() => apps.id, { onDelete: 'cascade' }),
    ...themeFields,
    /** Optimistic concurrency of the admin API: every write adds one. */
    version: integer('version').notNull().default(1),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.id] })],
);
export type ThemeRow = typeof themes.$inferSelect;

/**
 * The currencies and items an app defines (issue 39 §1): the catalog document's
 * two optional sections. A null column is a section the app does not define
 * (its list is then what the catalog names, name = id; no row: neither).
 */
export const catalogEconomy = pgTable('catalog_economy', {
  appId: text('app_id')
    .primaryKey()
    .references(() => apps.id, { onDelete: 'cascade' }),
  currencies: jsonb('currencies').$type<CurrencyDefinition[]>(),
  items: jsonb('items').$type<ItemDefinition[]>(),
  updatedAt: ms('updated_at').notNull(),
});
export type CatalogEconomyRow = typeof catalogEconomy.$inferSelect;

export const campaigns = pgTable(
  'campaigns',
  {
    appId: text('app_id').notNull().references(() => apps.id, { onDelete: 'cascade' }),
    ...campaignFields,
    /** Optimistic concurrency of the admin API: every write adds one. */
    version: integer('version').notNull().default(1),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.appId, t.id] }),
    check('campaign_bounds', sql`${t.endAt} > ${t.startAt}`),
    check('campaign_one_theme', sql`${t.theme} is null or ${t.themeId} is null`),
    // A preset in use cannot be deleted (the admin API answers 409 first).
    foreignKey({ name: 'campaigns_theme_fk', columns: [t.appId, t.themeId], foreignColumns: [themes.appId, themes.id] }),
  ],
);
export type CampaignRow = typeof campaigns.$inferSelect;

/**
 * What a campaign's missions have granted, per currency, written by the claim
 * statement itself (lib/claims/claim-mission.ts). `cap` is the campaign's
 * budget of that currency as the claim read it (null: no budget); the check
 * makes a claim that would take `spent` past it fail whole (409 budget_exhausted).
 * Not a foreign key to campaigns: what was paid stays when a campaign is deleted.
 */
export const campaignBudgetSpent = pgTable(
  'campaign_budget_spent',
  {
    appId: text('app_id').notNull(),
    campaignId: text('campaign_id').notNull(),
    currency: text('currency').notNull(),
    spent: ms('spent').notNull(),
    cap: ms('cap'),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.campaignId, t.currency] }), check('campaign_budget_within', sql`${t.cap} is null or ${t.spent} <= ${t.cap}`)],
);

/** Budget alerts: one row per (campaign, currency, threshold), written by the grant that reached the threshold. */
export const campaignBudgetAlerts = pgTable(
  'campaign_budget_alerts',
  {
    appId: text('app_id').notNull(),
    campaignId: text('campaign_id').notNull(),
    currency: text('currency').notNull(),
    threshold: smallint('threshold').notNull(),
    spent: ms('spent').notNull(),
    budget: ms('budget').notNull(),
    /** The mission whose claim reached the threshold (no user id: an alert is no personal data). */
    missionId: text('mission_id').notNull(),
    at: ms('at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.campaignId, t.currency, t.threshold] })],
);

/**
 * Claims refused because the campaign's budget of the reward's currency was
 * spent (409 budget_exhausted), per (campaign, currency): how many, the first
 * and the last. Written after the claim's statement failed, by the refusal's
 * own statement (lib/claims/record-refusal.ts), never by a grant.
 */
export const campaignBudgetRefusals = pgTable(
  'campaign_budget_refusals',
  {
    appId: text('app_id').notNull(),
    campaignId: text('campaign_id').notNull(),
    currency: text('currency').notNull(),
    refused: ms('refused').notNull(),
    firstAt: ms('first_at').notNull(),
    lastAt: ms('last_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.campaignId, t.currency] })],
);

/**
 * A user's last claim of a mission refused by its campaign's budget (the
 * inspector's "claim refused"), with the Idempotency-Key it came with, and
 * every key counted within the keys' 24 h: a retry under any key already
 * counted is the same claim and is not counted again (alternating keys too).
 */
export const claimRefusals = pgTable(
  'claim_refusals',
  {
    appId: text('app_id').notNull(),
    userId: text('user_id').notNull(),
    missionId: text('mission_id').notNull(),
    campaignId: text('campaign_id').notNull(),
    currency: text('currency').notNull(),
    amount: ms('amount').notNull(),
    /** The campaign's budget of the currency as the claim read it (null: none). */
    budget: ms('budget'),
    /** The stored Idempotency-Key (namespaced `claim:`), or null. */
    idempotencyKey: text('idempotency_key'),
    /** The keys counted, each with when (Unix ms); a key older than the keys' 24 h is dropped at the next refusal. */
    countedKeys: jsonb('counted_keys').$type<Record<string, number>>().notNull().default({}),
    at: ms('at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.userId, t.missionId] })],
);

/**
 * Partitioned by day of received_at (db/event-partitions.ts, which creates the
 * partitioned table from this one at start): a partitioned table has no
 * primary key of its own; each partition's primary key is `id`, and an id in
 * the service's format carries its received_at (lib/events/event-id.ts).
 */
export const events = pgTable(
  'events',
  {
    id: text('id').notNull(),
    appId: text('app_id').notNull(),
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    timestamp: ms('timestamp').notNull(),
    idempotencyKey: text('idempotency_key'),
    source: text('source').notNull().default('api'),
    receivedAt: ms('received_at').notNull(),
    /**
     * The criteria engine's verdict for each mission with the event's name, at
     * ingestion (lib/events/record-event.ts, EventOutcome); null for events
     * stored before verdicts were kept.
     */
    outcome: jsonb('outcome').$type<Array<{ missionId: string; counted: boolean } & Record<string, unknown>>>(),
  },
  (t) => [
    index('events_user_idx').on(t.appId, t.userId, t.timestamp),
    /** The app's latest events first: event-name suggestions read a bounded slice of it. */
    index('events_app_received_idx').on(t.appId, t.receivedAt),
  ],
);

/**
 * What idempotency needs after the 24 h cache is gone: the request's hash and the
 * response given, under (app, user, key). The primary key makes a second write fail.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    appId: text('app_id').notNull(),
    userId: text('user_id').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    /** The response body as a JSON string (jsonb would reorder its keys; a replay is byte for byte). */
    response: jsonb('response').notNull(),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.userId, t.key] })],
);

export const progress = pgTable(
  'progress',
  {
    appId: text('app_id').notNull(),
    userId: text('user_id').notNull(),
    missionId: text('mission_id').notNull(),
    status: text('status', { enum: ['active', 'completed', 'claimed'] }).notNull(),
    currentCount: integer('current_count').notNull(),
    targetCount: integer('target_count').notNull(),
    windowStart: ms('window_start').notNull(),
    cycle: integer('cycle').notNull(),
    updatedAt: ms('updated_at').notNull(),
    /** Issue 19: a sum's exact running sum, a distinct mission's values, a streak (AggregateState, lib/contract/mission-aggregate.ts); null for plain count missions. */
    state: jsonb('state').$type<AggregateState>(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.userId, t.missionId] })],
);

/**
 * Each user's change counter: bumped by every transaction that changes the
 * user's progress (events, claims), in the same statement that writes, so it
 * is both the optimistic version an event's write checks and the sequence
 * number its stream updates are published under, in order, after commit.
 */
export const userSequences = pgTable(
  'user_sequences',
  {
    appId: text('app_id').notNull(),
    userId: text('user_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    /**
     * When change number `seq` committed (the writer's clock, ms); null when
     * not known (rows from before this column). An event read with it knows
     * whether that change's stream message can still be on its way
     * (lib/updates/log.ts LogOrder.settled).
     */
    changedAt: ms('changed_at'),
  },
  (t) => [primaryKey({ columns: [t.appId, t.userId] })],
);

export const balances = pgTable(
  'balances',
  {
    appId: text('app_id').notNull(),
    userId: text('user_id').notNull(),
    currency: text('currency').notNull(),
    amount: ms('amount').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.userId, t.currency] }), check('balance_not_negative', sql`${t.amount} >= 0`)],
);

/** Append-only reward ledger: one row per grant; the grant key makes a second grant fail. */
export const ledger = pgTable(
  'ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: text('app_id').notNull(),
    userId: text('user_id').notNull(),
    grantKey: text('grant_key').notNull(),
    kind: text('kind', { enum: ['currency', 'item', 'badge'] }).notNull(),
    currency: text('currency'),
    amount: ms('amount'),
    itemId: text('item_id'),
    quantity: integer('quantity'),
    badgeId: text('badge_id'),
    missionId: text('mission_id'),
    balanceAfter: ms('balance_after'),
    createdAt: ms('created_at').notNull(),
    /** Staff grants and corrections (the support desk): who made it (`staff:<email>` or `admin-api-key`) and why; null for mission rewards. */
    actor: text('actor'),
    reason: text('reason'),
  },
  (t) => [uniqueIndex('ledger_grant_key_idx').on(t.appId, t.userId, t.grantKey), index('ledger_user_idx').on(t.appId, t.userId)],
);

/**
 * The users an app has seen, one row per (app, user), upserted by the event's
 * own write statement (lib/events/write-event.ts): the support desk's player
 * search. The trigram index (pg_trgm, GIN) serves any part of the id in any
 * case (ILIKE '%7f3a%'); the last-seen index serves "most recently seen first".
 */
export const appUsers = pgTable(
  'app_users',
  {
    appId: text('app_id').notNull(),
    userId: text('user_id').notNull(),
    firstSeenAt: ms('first_seen_at').notNull(),
    lastSeenAt: ms('last_seen_at').notNull(),
    events: ms('events').notNull(),
    /** The user's attributes (POST /v1/auth/token, webhook `users`): merged, set only with the app secret; `timezone` is reserved. */
    attributes: jsonb('attributes').$type<Record<string, string | number | boolean>>().notNull().default({}),
  },
  (t) => [
    primaryKey({ columns: [t.appId, t.userId] }),
    index('app_users_id_trgm_idx').using('gin', t.userId.op('gin_trgm_ops')),
    index('app_users_seen_idx').on(t.appId, t.lastSeenAt, t.userId),
  ],
);

/** Support notes on a player (the inspector), with author and time; erased with the player. */
export const userNotes = pgTable(
  'user_notes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: text('app_id').notNull(),
    userId: text('user_id').notNull(),
    author: text('author').notNull(),
    text: text('text').notNull(),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [index('user_notes_user_idx').on(t.appId, t.userId, t.id)],
);

/** Revoked token ids, kept until the token would have expired anyway. */
export const revokedTokens = pgTable('revoked_tokens', {
  jti: text('jti').primaryKey(),
  appId: text('app_id').notNull(),
  userId: text('user_id').notNull(),
  expiresAt: ms('expires_at').notNull(),
  revokedAt: ms('revoked_at').notNull(),
});

/** "Every token of this user issued before `before`" is revoked. */
export const userRevocations = pgTable(
  'user_revocations',
  {
    appId: text('app_id').notNull(),
    userId: text('user_id').notNull(),
    before: ms('before').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.userId] })],
);

/**
 * Dashboard counters, one row per (app, minute, kind, key, shard), upserted in
 * the transaction of the event or claim they count (lib/analytics/rollups.ts):
 * kind `event` (key: event name), `completion` and `claim` (key: mission id),
 * `currency` (key: currency; `amount` sums the amounts granted), `refusal`
 * (key: `<campaign id> <currency>`: claims refused by that budget). The shard
 * (from the user id) spreads one busy minute over several rows, so concurrent
 * transactions of different users seldom wait on the same row.
 */
export const analyticsRollups = pgTable(
  'analytics_rollups',
  {
    appId: text('app_id').notNull(),
    /** Start of the minute, ms since the epoch (server clock at write). */
    bucketStart: ms('bucket_start').notNull(),
    kind: text('kind', { enum: ['event', 'completion', 'claim', 'currency', 'refusal'] }).notNull(),
    key: text('key').notNull(),
    shard: smallint('shard').notNull(),
    count: ms('count').notNull(),
    amount: ms('amount').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.bucketStart, t.kind, t.key, t.shard] }), index('analytics_rollups_bucket_idx').on(t.bucketStart)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ms('at').notNull(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    appId: text('app_id'),
    target: text('target').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [index('audit_app_idx').on(t.appId, t.at)],
);

/**
 * What each staff member gave players of a currency (grants and corrections by |amount|, the currency
 * rewards of missions they completed): the day's total of the support role's grant limits
 * (lib/services/_shared/grant-limit.ts). It names no player, so a data erasure leaves it (the
 * audit rows it once was read from lose their before/after then); rows before yesterday are pruned.
 */
export const staffGrantUsage = pgTable(
  'staff_grant_usage',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // No reference to apps (as audit_log): a deleted app's rows are pruned with the rest.
    appId: text('app_id').notNull(),
    actor: text('actor').notNull(),
    currency: text('currency').notNull(),
    amount: ms('amount').notNull(),
    at: ms('at').notNull(),
  },
  (t) => [index('staff_grant_usage_day_idx').on(t.appId, t.actor, t.currency, t.at)],
);

/** The draft catalog of an app (at most one): a catalog document staff edit before publishing it; `scheduledAt` when its publish is scheduled. */
export const catalogDrafts = pgTable(
  'catalog_drafts',
  {
    appId: text('app_id')
      .primaryKey()
      .references(() => apps.id, { onDelete: 'cascade' }),
    catalog: jsonb('catalog').$type<CatalogDocument>().notNull(),
    /** The release the draft was started from (0: before any release). */
    baseRelease: integer('base_release').notNull(),
    updatedAt: ms('updated_at').notNull(),
    updatedBy: text('updated_by').notNull(),
    /** A scheduled publish: the poller of every instance claims the due row in one transaction (lib/services/releases/scheduler.ts). */
    scheduledAt: ms('scheduled_at'),
    scheduledBy: text('scheduled_by'),
    /**
     * What the scheduled publish makes live: the draft as it was when it was
     * scheduled (edits made after go into `catalog`, the next draft). Null for
     * a schedule made before this column (it publishes `catalog`, as then).
     */
    scheduledCatalog: jsonb('scheduled_catalog').$type<CatalogDocument>(),
    /**
     * A publish waiting for another editor's approval (the app's requireApproval):
     * who asked and when; its snapshot is `scheduledCatalog` (with no
     * `scheduledAt` until approved), so edits made meanwhile go into `catalog`.
     */
    approvalRequestedBy: text('approval_requested_by'),
    approvalRequestedAt: ms('approval_requested_at'),
    /** The time the requester asked it to go live at (null: as soon as approved). */
    approvalPublishAt: ms('approval_publish_at'),
    /** The last rejected approval request: who, when, why (cleared by the next request). */
    approvalRejection: jsonb('approval_rejection').$type<{ rejectedBy: string; rejectedAt: number; reason: string; requestedBy: string }>(),
  },
  (t) => [index('catalog_drafts_scheduled_idx').on(t.scheduledAt)],
);
export type CatalogDraftRow = typeof catalogDrafts.$inferSelect;

/** Every publish of an app's catalog, numbered from 1: the whole catalog it made live, who, when and what changed. */
export const catalogReleases = pgTable(
  'catalog_releases',
  {
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    release: integer('release').notNull(),
    catalog: jsonb('catalog').$type<CatalogDocument>().notNull(),
    changes: jsonb('changes').$type<CatalogChange[]>().notNull(),
    publishedAt: ms('published_at').notNull(),
    publishedBy: text('published_by').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.release] })],
);
export type CatalogReleaseRow = typeof catalogReleases.$inferSelect;

// Staff accounts of the console, in the shape Better Auth's drizzle adapter
// expects (its user, session, account and verification models, renamed).
// Dates are timestamps here because Better Auth reads and writes Date objects.
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const staff = pgTable(
  'staff',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** Stored lower-cased (Better Auth normalises e-mail addresses at sign-in). */
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    role: text('role', { enum: STAFF_ROLES }).notNull().default('support'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [check('staff_role_known', sql`${t.role} in (${sql.raw(STAFF_ROLES.map((r) => `'${r}'`).join(', '))})`)],
);
export type StaffRow = typeof staff.$inferSelect;

export const staffSession = pgTable(
  'staff_session',
  {
    id: text('id').primaryKey(),
    /** Better Auth keeps the session token itself; the cookie carries it signed. */
    token: text('token').notNull().unique(),
    userId: text('user_id').notNull().references(() => staff.id, { onDelete: 'cascade' }),
    expiresAt: at('expires_at').notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('staff_session_user_idx').on(t.userId)],
);

export const staffAccount = pgTable(
  'staff_account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    /** `credential` for e-mail and password; the password column holds its scrypt hash. */
    providerId: text('provider_id').notNull(),
    userId: text('user_id').notNull().references(() => staff.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: at('access_token_expires_at'),
    refreshTokenExpiresAt: at('refresh_token_expires_at'),
    scope: text('scope'),
    password: text('password'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('staff_account_user_idx').on(t.userId)],
);

export const staffVerification = pgTable(
  'staff_verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('staff_verification_identifier_idx').on(t.identifier)],
);

/**
 * Outbound webhooks (docs/webhooks.md "Outbound"): an app's endpoints and the
 * notifications due to each (an outbox). A deleted endpoint is kept
 * (deleted_at) so its delivery log stays readable; it receives nothing more.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    appId: text('app_id').notNull(),
    url: text('url').notNull(),
    /** The notification types it receives (lib/contract/outbound.ts NOTIFICATION_TYPES). */
    events: jsonb('events').$type<string[]>().notNull(),
    /** HMAC key of its signatures: kept as is because signing needs it; shown once, at creation. */
    secret: text('secret').notNull(),
    createdAt: ms('created_at').notNull(),
    deletedAt: ms('deleted_at'),
  },
  (t) => [index('webhook_endpoints_app_idx').on(t.appId, t.createdAt)],
);

/**
 * One notification to one endpoint: written in the same transaction (or
 * statement) as the change it reports, sent after commit by the worker
 * (lib/outbound/worker.ts). `locked_until` is the lease of the instance
 * sending it; `id` is the Questline-Webhook-Id of every attempt.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    appId: text('app_id').notNull(),
    endpointId: text('endpoint_id').notNull(),
    userId: text('user_id').notNull(),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ms('next_attempt_at'),
    lockedUntil: ms('locked_until'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: ms('created_at').notNull(),
    /** Since when it is retried: created_at, or the time of a redeliver; retries stop 24 h later. */
    retryingSince: ms('retrying_since').notNull(),
    deliveredAt: ms('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
  ],
);
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
