// The release verbs called directly with a ServiceContext (in process: the
// embedded database, or DATABASE_URL's; no server): put a draft, publish it
// (the live tables, the release and the catalog-changed step after commit
// only), a publish that rolls back (nothing live, no release, nothing
// announced), scheduled drafts published only when due, and restore.
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { catalogReleases, missions } from '@/db/schema';
import { prepareTestEnv, uniqueId } from '@/lib/testing/test-env';
import { withTransaction, type ServiceContext } from '../context';
import { putDraft } from '../drafts/put-draft';
import { getDraft } from '../drafts/get-draft';
import { publishDraft } from '../drafts/publish-draft';
import { publishDueDrafts } from '../drafts/publish-due';
import { listReleases } from './list-releases';
import { restoreRelease } from './restore-release';

let db: Db;
let base: Omit<ServiceContext, 'appId' | 'now' | 'deps'> & { deps: Omit<ServiceContext['deps'], 'catalogChanged'> };
let makeApp: (id: string) => Promise<void>;
const mission = (id: string, count = 1) => ({ id, title: `Mission ${id}`, criteria: { eventName: 'play', count }, reward: { kind: 'currency', currency: 'gems', amount: 10 } });

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
    deps: { db, kv: getKv(), bus: getBus(), log: logger(), catalog: getCatalog, publish: async () => {}, eraseStream: async () => {} },
  };
});

function contextFor(appId: string, now = 1_764_000_000_000) {
  const changed: Array<{ appId: string; missionIds: string[] }> = [];
  const clock = { now };
  const ctx: ServiceContext = { ...base, appId, now: () => clock.now, deps: { ...base.deps, catalogChanged: async (a, missionIds) => void changed.push({ appId: a, missionIds }) } };
  return { ctx, changed, clock };
}

const liveIds = async (appId: string) => (await db.select().from(missions).where(eq(missions.appId, appId))).filter((m) => !m.archived).map((m) => m.id).sort();

describe('release verbs', () => {
  it('publish: the draft live, release 1 with its changes, the draft gone, catalogChanged after commit with the streamed missions', async () => {
    const appId = uniqueId('rel');
    await makeApp(appId);
    const { ctx, changed } = contextFor(appId);
    const draft = await putDraft({ ctx, input: { catalog: { missions: [mission('a'), mission('b')], campaigns: [] } } });
    expect(draft.baseRelease).toBe(0);
    expect(draft.changes.map((c) => c.change)).toEqual(['added', 'added']);
    const outcome = await publishDraft({ ctx, input: {} });
    expect(outcome).toEqual({ status: 200, body: { release: 1, publishedAt: 1_764_000_000_000 } });
    expect(await liveIds(appId)).toEqual(['a', 'b']);
    expect(changed).toEqual([{ appId, missionIds: [] }]);
    await expect(getDraft({ ctx })).rejects.toMatchObject({ code: 'draft_not_found' });

    await putDraft({ ctx, input: { catalog: { missions: [mission('a', 5)], campaigns: [] } } });
    await publishDraft({ ctx, input: {} });
    expect(await liveIds(appId)).toEqual(['a']);
    // a's count changed and b was archived: their holders' streams get the new reading.
    expect(changed[1]).toEqual({ appId, missionIds: ['a', 'b'] });
    const list = await listReleases({ ctx });
    expect(list.releases.map((r) => [r.release, r.publishedBy, r.changes])).toEqual([
      [2, 'staff:ana@example.com', [{ kind: 'mission', id: 'a', change: 'changed' }, { kind: 'mission', id: 'b', change: 'removed' }]],
      [1, 'staff:ana@example.com', [{ kind: 'mission', id: 'a', change: 'added' }, { kind: 'mission', id: 'b', change: 'added' }]],
    ]);

    const restored = await restoreRelease({ ctx, input: { release: 1 } });
    expect(restored.baseRelease).toBe(2);
    expect(restored.catalog.missions.map((m) => [m.id, m.criteria.count, m.archived])).toEqual([['a', 1, false], ['b', 1, false]]);
    await expect(restoreRelease({ ctx, input: { release: 9 } })).rejects.toMatchObject({ code: 'release_not_found' });
  });

  it('a publish inside a transaction that rolls back: nothing live, no release, nothing announced, the draft kept', async () => {
    const appId = uniqueId('rel');
    await makeApp(appId);
    const { ctx, changed } = contextFor(appId);
    await putDraft({ ctx, input: { catalog: { missions: [mission('a')], campaigns: [] } } });
    await expect(
      withTransaction(ctx, async (tx) => {
        await publishDraft({ ctx: tx, input: {} });
        throw new Error('the caller fails after the publish');
      }),
    ).rejects.toThrow('the caller fails');
    expect(await liveIds(appId)).toEqual([]);
    expect(await db.select().from(catalogReleases).where(eq(catalogReleases.appId, appId))).toEqual([]);
    expect(changed).toEqual([]);
    expect((await getDraft({ ctx })).changes).toHaveLength(1);
  });

  it('scheduled: refused unless in the future; published by publishDueDrafts only once due, once', async () => {
    const appId = uniqueId('rel');
    await makeApp(appId);
    const { ctx, clock } = contextFor(appId, Date.now());
    await putDraft({ ctx, input: { catalog: { missions: [mission('a')], campaigns: [] } } });
    await expect(publishDraft({ ctx, input: { at: clock.now } })).rejects.toMatchObject({ code: 'validation_error' });
    const at = clock.now + 60_000;
    expect(await publishDraft({ ctx, input: { at } })).toEqual({ status: 202, body: { scheduledAt: at } });
    const system = contextFor('', at - 1);
    expect((await publishDueDrafts({ ctx: system.ctx })).filter((p) => p.appId === appId)).toEqual([]);
    expect(await liveIds(appId)).toEqual([]);
    system.clock.now = at;
    const due = (await publishDueDrafts({ ctx: system.ctx })).filter((p) => p.appId === appId);
    expect(due).toEqual([{ appId, release: 1, scheduledAt: at, publishedAt: at }]);
    expect(await liveIds(appId)).toEqual(['a']);
    expect((await publishDueDrafts({ ctx: system.ctx })).filter((p) => p.appId === appId)).toEqual([]);
    expect((await listReleases({ ctx })).releases[0].publishedBy).toBe('staff:ana@example.com');
  });
});
