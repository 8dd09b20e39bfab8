// The one write path of an app's live catalog: the catalog PUT, a publish (a
// draft's, scheduled or not, and so a restored release's) and the per-entity
// verbs (lib/services/themes, campaigns, missions) all run writeCatalog. In
// the verb's transaction (the caller's when there is one): the app's catalog
// lock first and the live catalog read once (lockCatalog,
// lib/catalog/record-release.ts), then the verb's checks and writes, then the
// release; once it commits, every instance drops its copy of the catalog and
// the holders of the missions whose reading changed get it on their streams.
// The item writes that the PUT and a publish share are here too.
import { sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { campaigns as campaignsTable, missions as missionsTable, themes as themesTable } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { campaignColumns, missionColumns, themeColumns } from '@/lib/catalog/convert';
import { lockCatalog, recordRelease, type CatalogLock, type RecordedRelease } from '@/lib/catalog/record-release';
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { Mission } from '@/lib/contract/mission';
import type { CatalogChange } from '@/lib/contract/release';
import type { ThemePreset } from '@/lib/contract/theme';
import { AppError } from '@/lib/errors';
import { actorLabel, withTransaction, type ServiceContext, type TxContext } from '../context';
import { approvalRequired, approvalRequiredError } from './approval-rule';
import type { CampaignIn } from './campaigns';

/** A write that names a version other than the stored one (themes, campaigns): someone saved in between. */
export function staleVersion(kind: string, id: string, sent: number, current: number): AppError {
  return new AppError('conflict', `${kind} "${id}" is at version ${current}, not ${sent}: it changed since you read it; reload and apply your change again`);
}

/** What a write is given: its transaction, the lock (with the live catalog as it was), its time and actor. */
export interface CatalogWriteScope {
  tx: TxContext;
  db: Tx;
  appId: string;
  lock: CatalogLock;
  /** The live catalog before this write (lock.before). */
  before: CatalogDocument;
  now: number;
  /** The audit label the write's rows and its release name. */
  actor: string;
}

/** What a write answers: its value, and what it changed. */
export interface CatalogWritten<T> {
  value: T;
  /** Nothing was written (an edit equal to the stored item): no release, nothing announced. */
  unchanged?: boolean;
  /** Missions whose count, window or archived flag changed (streamedChanges, lib/updates/resync.ts): their holders' streams get the new reading. */
  streamed?: string[];
  /** What the release records as changed, when the write knows it better than a diff of the live tables (a draft: its removals). */
  changes?: CatalogChange[];
}

/**
 * Runs `write` as a write of the app's live catalog, in the context's
 * transaction (a new one when it has none): takes the app's catalog lock and
 * reads the live catalog (unless `lock` is given, taken by the caller in the
 * same transaction), runs `write` (its checks throw before anything commits),
 * refuses a direct write of an app that requires approval, records the
 * release (none when nothing changed, unless a publish) and, after
 * the commit, drops the catalog everywhere and resyncs the holders of the
 * streamed missions (ServiceContext's catalogChanged). Answers the write's
 * value, the release (null when none) and the streamed missions.
 */
export async function writeCatalog<T>(
  ctx: ServiceContext,
  input: {
    lock?: CatalogLock;
    now?: number;
    actor?: string;
    /** A publish of a draft (publishCatalog): a release even when nothing changed, and the two-person rule lets it through (an app requiring approval publishes only an approved draft). */
    publish?: boolean;
    write: (w: CatalogWriteScope) => Promise<CatalogWritten<T>>;
  },
): Promise<{ value: T; release: RecordedRelease | null; streamed: string[] }> {
  return withTransaction(ctx, async (tx) => {
    const { appId } = tx;
    const db = tx.uow.tx;
    const now = input.now ?? tx.now();
    const actor = input.actor ?? actorLabel(tx.actor);
    const lock = input.lock ?? (await lockCatalog(db, appId));
    if (lock.appId !== appId) throw new Error(`catalog lock of app "${lock.appId}" used for app "${appId}"`);
    const written = await input.write({ tx, db, appId, lock, before: lock.before, now, actor });
    if (written.unchanged) return { value: written.value, release: null, streamed: [] };
    // The two-person rule: a direct write (the PUT, a per-entity route) of an app that requires approval is refused
    // (409 approval_required) and rolls back whole; live changes only through an approved draft's publish.
    if (!input.publish && (await approvalRequired(db, appId))) throw approvalRequiredError(appId);
    const release = await recordRelease(db, { lock, actor, now, changes: written.changes, always: input.publish });
    const streamed = written.streamed ?? [];
    tx.uow.afterCommit(() => tx.deps.catalogChanged(appId, streamed, now));
    return { value: written.value, release, streamed };
  });
}

/** An item of the catalog written over the stored one by id (inserted when new), its version bumped, audited as `<kind>.create` or `<kind>.update` (`current`: the stored item, null when new). */
async function upsert(w: CatalogWriteScope, kind: 'theme' | 'campaign' | 'mission', id: string, columns: Record<string, unknown>, item: unknown, current: unknown): Promise<void> {
  const table = { theme: themesTable, campaign: campaignsTable, mission: missionsTable }[kind];
  const values = { ...columns, updatedAt: w.now };
  // The version moves with every write, so a console edit based on the version before is refused (409), not lost.
  await w.db
    .insert(table)
    .values({ appId: w.appId, id, ...values, createdAt: w.now } as typeof table.$inferInsert)
    .onConflictDoUpdate({ target: [table.appId, table.id], set: { ...values, version: sql`${table.version} + 1` } });
  await recordAudit(w.db, { actor: w.actor, action: current ? `${kind}.update` : `${kind}.create`, appId: w.appId, target: `${kind}:${id}`, before: current ?? null, after: item }, w.now);
}

export const upsertTheme = (w: CatalogWriteScope, t: ThemePreset, current: unknown) => upsert(w, 'theme', t.id, themeColumns(t), t, current);
export const upsertCampaign = (w: CatalogWriteScope, c: CampaignIn, current: unknown) => upsert(w, 'campaign', c.id, campaignColumns(c), c, current);
export const upsertMission = (w: CatalogWriteScope, m: Mission, current: unknown) => upsert(w, 'mission', m.id, missionColumns(m), m, current);
