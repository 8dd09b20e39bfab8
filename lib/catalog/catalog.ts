// The in-memory catalog of each app: missions by id and by event name, and
// campaigns. Events read it on every request, so it is never fetched per
// event; a catalog change publishes on the bus and every instance drops its copy.
//
// With Redis unreachable the bus loses messages, so (docs/operations/README.md,
// "Redis outages"): an invalidation whose publish failed is published again
// every second until it goes through, and an instance whose subscription
// dropped and came back drops every copy it holds (whatever was published
// meanwhile never reached it). CATALOG_MAX_AGE_MS bounds a copy's age in any
// case (a bus that loses a message without either instance noticing).
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { campaigns as campaignsTable, missions as missionsTable, themes as themesTable, webhookEndpoints } from '@/db/schema';
import { getBus, type Bus } from '@/lib/bus';
import { isCircuitOpen } from '@/lib/kv/breaker';
import { logError } from '@/lib/log';
import { outageLog } from '@/lib/log-outage';
import { processWide } from '@/lib/process-wide';
import type { Campaign } from '@/lib/contract/campaign';
import type { EconomySections } from '@/lib/contract/economy';
import { rewardsOf, type Mission, type Reward, type ShownReward } from '@/lib/contract/mission';
import { themeOfPreset, type ThemePreset } from '@/lib/contract/theme';
import { campaignFromRow, missionFromRow, themeFromRow } from './convert';
import { readEconomySections } from './economy-sections';
import { metrics } from '@/lib/metrics';

export interface Catalog {
  appId: string;
  /** Every mission, archived included (a completed record stays claimable). */
  missions: Map<string, Mission>;
  /** Missions ordered by id: the stable order of GET /v1/missions. */
  ordered: Mission[];
  /** Non-archived missions by criteria.eventName. */
  byEvent: Map<string, Mission[]>;
  /** Campaigns with their `theme` resolved (a preset's colours when `themeId` names one). */
  campaigns: Map<string, Campaign>;
  /** When each mission was first authored (Unix ms): "newest" in the recommendation fallback. */
  missionCreatedAt: ReadonlyMap<string, number>;
  /**
   * The app's live outbound-webhook endpoints by notification type (ids): an
   * app with none writes no outbox row and pays no statement for it. Endpoint
   * changes invalidate the catalog like a mission edit.
   */
  endpoints: ReadonlyMap<string, readonly string[]>;
  /** The currencies and items the app defines (a section absent: not defined; issue 39 §1). */
  economy: EconomySections;
  loadedAt: number;
}

/**
 * The mission with its reward's display `name` and `iconUrl` from the app's
 * definitions, as /v1 shows it (additive; a reward naming nothing defined is
 * left as authored, so an app that defines nothing answers as before).
 */
function withRewardDisplay(m: Mission, economy: EconomySections): Mission {
  const rewards = rewardsOf(m);
  const shown = rewards.map((r) => shownReward(r, economy));
  if (shown.every((r, i) => r === rewards[i])) return m;
  return { ...m, reward: shown[0], rewards: shown };
}

function shownReward(r: Reward, economy: EconomySections): ShownReward | Reward {
  const def =
    r.kind === 'currency'
      ? economy.currencies?.find((c) => c.id === r.currency)
      : economy.items?.find((d) => d.kind === r.kind && d.id === (r.kind === 'item' ? r.itemId : r.badgeId));
  if (!def) return r;
  return { ...r, name: def.name, ...(def.iconUrl ? { iconUrl: def.iconUrl } : {}) };
}

const CATALOG_CHANNEL = 'catalog:changed';
/** The default of CATALOG_MAX_AGE_MS: the safety net should a bus message be lost unnoticed. */
const DEFAULT_MAX_AGE_MS = 60_000;
/** How often an invalidation whose publish failed is tried again. */
const REPUBLISH_MS = 1_000;

/** CATALOG_MAX_AGE_MS (1000 to 3600000; lib/config rejects other values at start-up), else the default; read per call so tests and operators can set it. */
function maxAgeMs(): number {
  const raw = process.env.CATALOG_MAX_AGE_MS?.trim();
  const ms = raw ? Number(raw) : NaN;
  return Number.isInteger(ms) && ms >= 1_000 && ms <= 3_600_000 ? ms : DEFAULT_MAX_AGE_MS;
}

// One cache and one bus subscription per process, whichever Next.js chunk asks.
const state = processWide('catalog', () => ({
  cache: new Map<string, Promise<Catalog>>(),
  /** The bus the subscription was made on: a closed and reopened bus (tests, shutdown) is subscribed again. */
  bus: null as Bus | null,
  subscribed: null as Promise<void> | null,
  /** Where the loader reads: the process's database, provided at start-up (lib/boot.ts). */
  database: null as (() => Promise<DbOrTx>) | null,
  /** Apps whose invalidation could not be published yet, and the timer that retries them. */
  unpublished: new Set<string>(),
  republish: null as ReturnType<typeof setInterval> | null,
}));
const cache = state.cache;

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function buildCatalog(
  appId: string,
  missionList: Mission[],
  campaignList: Omit<Campaign, 'missionIds'>[],
  now = Date.now(),
  missionCreatedAt: ReadonlyMap<string, number> = new Map(),
  themeList: ThemePreset[] = [],
  endpointList: ReadonlyArray<{ id: string; events: readonly string[] }> = [],
  economy: EconomySections = {},
): Catalog {
  const endpoints = new Map<string, string[]>();
  for (const e of endpointList) for (const type of e.events) endpoints.set(type, [...(endpoints.get(type) ?? []), e.id]);
  const presets = new Map(themeList.map((t) => [t.id, t]));
  const defined = economy.currencies !== undefined || economy.items !== undefined;
  const ordered = [...missionList].sort((a, b) => compareIds(a.id, b.id)).map((m) => (defined ? withRewardDisplay(m, economy) : m));
  const missions = new Map(ordered.map((m) => [m.id, m]));
  const byEvent = new Map<string, Mission[]>();
  for (const m of ordered) {
    if (m.archived) continue;
    const list = byEvent.get(m.criteria.eventName) ?? [];
    list.push(m);
    byEvent.set(m.criteria.eventName, list);
  }
  const campaigns = new Map<string, Campaign>();
  for (const c of [...campaignList].sort((a, b) => compareIds(a.id, b.id))) {
    // Archived missions are not resolvable by clients, so they are not listed here either.
    const preset = c.themeId === undefined ? undefined : presets.get(c.themeId);
    const theme = preset ? themeOfPreset(preset) : c.theme;
    campaigns.set(c.id, {
      ...c,
      ...(theme ? { theme } : {}),
      missionIds: ordered.filter((m) => m.campaignId === c.id && !m.archived).map((m) => m.id),
    });
  }
  return { appId, missions, ordered, byEvent, campaigns, missionCreatedAt, endpoints, economy, loadedAt: now };
}

/** The database the catalog is loaded from, provided once by start-up (lib/boot.ts: processDb). */
export function provideCatalogDatabase(database: () => Promise<DbOrTx>): void {
  state.database = database;
}

async function loadCatalog(appId: string): Promise<Catalog> {
  // A load before boot() is a wiring error.
  if (!state.database) throw new Error('lib/catalog: the catalog database is not provided yet (lib/boot.ts provides it before serving)');
  const db = await state.database();
  const [missionRows, campaignRows, themeRows, endpointRows, economy] = await Promise.all([
    db.select().from(missionsTable).where(eq(missionsTable.appId, appId)),
    db.select().from(campaignsTable).where(eq(campaignsTable.appId, appId)),
    db.select().from(themesTable).where(eq(themesTable.appId, appId)),
    db
      .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.appId, appId), isNull(webhookEndpoints.deletedAt))),
    readEconomySections(db, appId),
  ]);
  return buildCatalog(
    appId,
    missionRows.map(missionFromRow),
    campaignRows.map((row) => campaignFromRow(row, [])),
    Date.now(),
    new Map(missionRows.map((row) => [row.id, row.createdAt])),
    themeRows.map(themeFromRow),
    endpointRows,
    economy,
  );
}

function ensureSubscribed(): Promise<void> {
  const bus = getBus();
  if (state.bus !== bus) {
    // Anything cached while no subscription was live may have missed an invalidation.
    state.bus = bus;
    state.subscribed = null;
    cache.clear();
  }
  state.subscribed ??= (async () => {
    await bus.subscribe(CATALOG_CHANNEL, (appId) => cache.delete(appId));
    // Back from a dropped subscription: an invalidation may have been missed.
    bus.onResubscribed(() => cache.clear());
  })().catch((err: unknown) => {
    state.bus = null;
    state.subscribed = null;
    metrics().busErrors.inc({ operation: 'subscribe' });
    if (!isCircuitOpen(err)) logError('catalog subscription failed', err);
  });
  return state.subscribed;
}

/** The app's catalog, from memory when fresh. */
export async function getCatalog(appId: string): Promise<Catalog> {
  await ensureSubscribed();
  const current = cache.get(appId);
  if (current) {
    const catalog = await current.catch(() => null);
    if (catalog && Date.now() - catalog.loadedAt < maxAgeMs()) return catalog;
    if (cache.get(appId) === current) cache.delete(appId);
  }
  if (!cache.has(appId)) {
    const pending = loadCatalog(appId);
    cache.set(appId, pending);
    pending.catch(() => cache.delete(appId));
  }
  return cache.get(appId)!;
}

/**
 * Drops this instance's copy and tells every other instance to drop theirs.
 * A failed publish (Redis unreachable) is retried every second until it goes
 * through: the other instances learn of the edit once Redis is back.
 */
export async function invalidateCatalog(appId: string): Promise<void> {
  cache.delete(appId);
  if (!(await publishInvalidation(appId))) scheduleRepublish(appId);
}

// Retried every second while Redis is away: one line when the publishes start failing, one when they work again.
const publishOutage = outageLog('catalog.publish', 'catalog invalidation publish');

async function publishInvalidation(appId: string): Promise<boolean> {
  try {
    await getBus().publish(CATALOG_CHANNEL, appId);
    publishOutage.recovered({ appId, unpublished: state.unpublished.size });
    return true;
  } catch (err) {
    metrics().busErrors.inc({ operation: 'publish' });
    publishOutage.failed(err, { appId });
    return false;
  }
}

function scheduleRepublish(appId: string): void {
  state.unpublished.add(appId);
  if (state.republish) return;
  let running = false;
  state.republish = setInterval(() => {
    if (running) return;
    running = true;
    void (async () => {
      for (const id of [...state.unpublished]) {
        // Still failing: keep it (and the rest) for the next round.
        if (!(await publishInvalidation(id))) return;
        state.unpublished.delete(id);
      }
      if (state.unpublished.size === 0 && state.republish) {
        clearInterval(state.republish);
        state.republish = null;
      }
    })().finally(() => (running = false));
  }, REPUBLISH_MS);
  // Never holds a process that is shutting down.
  state.republish.unref?.();
}
