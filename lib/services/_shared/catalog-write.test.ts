// The catalog's one write path, counted statement by statement (in process:
// the embedded database, or DATABASE_URL's): every statement a verb's
// transaction sends is recorded, and a save, a publish, a restore's publish,
// the catalog PUT and a per-entity write each take the app's catalog lock
// once, the draft row's lock once, and read the live catalog once before
// their writes (a publish reads it once more after them: the release's
// snapshot of what went live). A second lock or a second read fails here.
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { apps } from '@/db/schema';
import { prepareTestEnv, uniqueId } from '@/lib/testing/test-env';
import type { ServiceContext } from '../context';
import { putCatalog, parseCatalogImport } from '../catalog/put-catalog';
import { putDraft } from '../drafts/put-draft';
import { putDraftItem } from '../drafts/put-draft-item';
import { revertDraftItem } from '../drafts/revert-draft-item';
import { publishDraft } from '../drafts/publish-draft';
import { restoreRelease } from '../releases/restore-release';
import { updateMission } from '../missions/update-mission';
import { createTheme } from '../themes/create-theme';
import { approveDraft } from '../drafts/approve-draft';
import { parseMission } from './missions';

let db: Db;
let base: Omit<ServiceContext, 'appId' | 'now' | 'deps' | 'uow'> & { deps: ServiceContext['deps'] };
let makeApp: (id: string) => Promise<void>;
const mission = (id: string, count = 1) => ({ id, title: `Mission ${id}`, criteria: { eventName: 'play', count }, reward: { kind: 'currency', currency: 'gems', amount: 10 } });

/** The SQL of every statement sent inside the transactions the context opens, in order. */
function recording(): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const recorded = new Proxy(db, {
    get(target, key, receiver) {
      if (key !== 'transaction') return Reflect.get(target, key, receiver);
      return (fn: (tx: unknown) => Promise<unknown>, ...rest: unknown[]) =>
        (target.transaction as (f: (tx: unknown) => Promise<unknown>, ...r: unknown[]) => Promise<unknown>)(async (tx) => {
          // Every statement of a transaction goes through its session's prepareQuery (query builders and execute alike).
          const session = (tx as { session: { prepareQuery: (query: { sql: string }, ...args: unknown[]) => unknown } }).session;
          const prepare = session.prepareQuery.bind(session);
          session.prepareQuery = (query, ...args) => {
            statements.push(query.sql);
            return prepare(query, ...args);
          };
          return fn(tx);
        }, ...rest);
    },
  });
  return { db: recorded, statements };
}

function contextFor(appId: string, actor: ServiceContext['actor'] = base.actor) {
  const { db: recorded, statements } = recording();
  const ctx: ServiceContext = { ...base, actor, appId, now: () => 1_764_000_000_000, deps: { ...base.deps, db: recorded } };
  return { ctx, statements };
}

const appLock = (s: string) => /from apps where id = \$1 for update/i.test(s);
const draftLock = (s: string) => /from "catalog_drafts"/.test(s) && /for update/i.test(s);
// readLiveCatalog: all of the app's missions, campaigns and themes, and its currencies and items.
const liveRead = (s: string) => /^select .* from "catalog_economy" where "catalog_economy"\."app_id" = \$1$/.test(s);
const missionsRead = (s: string) => /^select "app_id", "id", .* from "missions" where "missions"\."app_id" = \$1$/.test(s);
const isWrite = (s: string) => /^(insert|update|delete) /i.test(s);

/** Live catalog reads before the first write (the lock's) and after it (the release's snapshot). */
function counts(statements: string[]) {
  const firstWrite = statements.findIndex(isWrite);
  const reads = statements.flatMap((s, i) => (liveRead(s) ? [i] : []));
  return {
    appLocks: statements.filter(appLock).length,
    draftLocks: statements.filter(draftLock).length,
    liveReads: reads.length,
    missionReads: statements.filter(missionsRead).length,
    readsBeforeWrites: reads.filter((i) => firstWrite === -1 || i < firstWrite).length,
    readsAfterWrites: reads.filter((i) => firstWrite !== -1 && i > firstWrite).length,
  };
}

beforeAll(async () => {
  prepareTestEnv();
  const [{ boot }, { getDb }, { getKv }, { getBus }, { logger }, { getCatalog }, { insertApp }] = await Promise.all([
    import('@/lib/boot'),
    import('@/db/client'),
    import('@/lib/kv'),
    import('@/lib/bus'),
    import('@/lib/log'),
    import('@/lib/catalog/catalog'),
    import('@/lib/apps/apps'),
  ]);
  await boot();
  db = await getDb();
  makeApp = async (id) => void (await db.transaction((tx) => insertApp(tx, { id, name: id, appSecret: 'qs_test_secret_0123456789abcdef' }, 'test', Date.now())));
  base = {
    actor: { kind: 'staff', id: 'ana@example.com', role: 'editor' },
    requestId: 'test-request',
    deps: { db, kv: getKv(), bus: getBus(), log: logger(), catalog: getCatalog, publish: async () => {}, eraseStream: async () => {}, catalogChanged: async () => {} },
  };
});

describe('the catalog write path, statement by statement', () => {
  it('a draft save (one item): the draft row locked once, the live catalog read once, the app not locked', async () => {
    const appId = uniqueId('cw');
    await makeApp(appId);
    await putDraft({ ctx: contextFor(appId).ctx, input: { catalog: { missions: [mission('a')], campaigns: [] } } });
    const { ctx, statements } = contextFor(appId);
    await putDraftItem({ ctx, input: { collection: 'missions', id: 'b', item: mission('b') } });
    expect(counts(statements)).toMatchObject({ appLocks: 0, draftLocks: 1, liveReads: 1, missionReads: 1 });
  });

  it('reverting a draft item: the draft row locked once, the live catalog read once', async () => {
    const appId = uniqueId('cw');
    await makeApp(appId);
    await putDraft({ ctx: contextFor(appId).ctx, input: { catalog: { missions: [mission('a')], campaigns: [] } } });
    const { ctx, statements } = contextFor(appId);
    const { restored } = await revertDraftItem({ ctx, input: { collection: 'missions', id: 'a' } });
    expect(restored).toBe('removed');
    expect(counts(statements)).toMatchObject({ appLocks: 0, draftLocks: 1, liveReads: 1, missionReads: 1 });
  });

  it('a publish: the app locked once and the draft row once; the live catalog read once before the writes, and once after them for the release', async () => {
    const appId = uniqueId('cw');
    await makeApp(appId);
    await putDraft({ ctx: contextFor(appId).ctx, input: { catalog: { missions: [mission('a'), mission('b')], campaigns: [] } } });
    await publishDraft({ ctx: contextFor(appId).ctx, input: {} });
    await putDraft({ ctx: contextFor(appId).ctx, input: { catalog: { missions: [mission('a', 3)], campaigns: [] } } });
    const { ctx, statements } = contextFor(appId);
    expect(await publishDraft({ ctx, input: {} })).toMatchObject({ status: 200, body: { release: 2 } });
    expect(counts(statements)).toEqual({ appLocks: 1, draftLocks: 1, liveReads: 2, missionReads: 2, readsBeforeWrites: 1, readsAfterWrites: 1 });
  });

  it('a restored release published: the same one lock and one read before the writes', async () => {
    const appId = uniqueId('cw');
    await makeApp(appId);
    for (const count of [1, 2]) {
      await putDraft({ ctx: contextFor(appId).ctx, input: { catalog: { missions: [mission('a', count)], campaigns: [] } } });
      await publishDraft({ ctx: contextFor(appId).ctx, input: {} });
    }
    const restore = contextFor(appId);
    await restoreRelease({ ctx: restore.ctx, input: { release: 1 } });
    expect(counts(restore.statements)).toMatchObject({ appLocks: 0, draftLocks: 1, liveReads: 1 });
    const { ctx, statements } = contextFor(appId);
    expect(await publishDraft({ ctx, input: {} })).toMatchObject({ status: 200, body: { release: 3 } });
    expect(counts(statements)).toEqual({ appLocks: 1, draftLocks: 1, liveReads: 2, missionReads: 2, readsBeforeWrites: 1, readsAfterWrites: 1 });
  });

  it('the catalog PUT: the app locked once, the live catalog read once before the writes, once after them for the release', async () => {
    const appId = uniqueId('cw');
    await makeApp(appId);
    await putCatalog({ ctx: contextFor(appId).ctx, input: parseCatalogImport({ missions: [mission('a')] }) });
    const { ctx, statements } = contextFor(appId);
    await putCatalog({ ctx, input: parseCatalogImport({ missions: [mission('a', 2), mission('b')], currencies: [{ id: 'gems', name: 'Gems' }] }) });
    expect(counts(statements)).toEqual({ appLocks: 1, draftLocks: 0, liveReads: 2, missionReads: 2, readsBeforeWrites: 1, readsAfterWrites: 1 });
  });

  it('a per-entity write: the app locked once, the live catalog read once before the writes, once after them for the release', async () => {
    const appId = uniqueId('cw');
    await makeApp(appId);
    const created = contextFor(appId);
    await createTheme({ ctx: created.ctx, input: { theme: { id: 'dark', name: 'Dark', primaryColor: '#112233' } } });
    expect(counts(created.statements)).toMatchObject({ appLocks: 1, liveReads: 2, readsBeforeWrites: 1, readsAfterWrites: 1 });
    await putCatalog({ ctx: contextFor(appId).ctx, input: parseCatalogImport({ missions: [mission('a')] }) });
    const { ctx, statements } = contextFor(appId);
    const record = await updateMission({ ctx, input: { id: 'a', version: 1, mission: parseMission(mission('a', 4)) } });
    expect(record.version).toBe(2);
    expect(counts(statements)).toMatchObject({ appLocks: 1, liveReads: 2, readsBeforeWrites: 1, readsAfterWrites: 1 });
  });

  it('an approved publish (the two-person rule): the same one app lock and one read before the writes', async () => {
    const appId = uniqueId('cw');
    await makeApp(appId);
    await db.update(apps).set({ requireApproval: true }).where(eq(apps.id, appId));
    await putDraft({ ctx: contextFor(appId).ctx, input: { catalog: { missions: [mission('a')], campaigns: [] } } });
    const asked = contextFor(appId);
    expect(await publishDraft({ ctx: asked.ctx, input: {} })).toMatchObject({ status: 202 });
    expect(counts(asked.statements)).toMatchObject({ appLocks: 0, draftLocks: 1, liveReads: 1 });
    const { ctx, statements } = contextFor(appId, { kind: 'staff', id: 'bo@example.com', role: 'editor' });
    expect(await approveDraft({ ctx, input: {} })).toMatchObject({ status: 200, body: { release: 1 } });
    expect(counts(statements)).toEqual({ appLocks: 1, draftLocks: 1, liveReads: 2, missionReads: 2, readsBeforeWrites: 1, readsAfterWrites: 1 });
  });
});
