// The draft read before it pays out (issue 39 §5), over real HTTP: each change
// field by field (changeDetails), the payout warnings of each kind from real
// completions and claims, and the publish (now and scheduled) refused with
// 409 needs_acknowledgement while they are not acknowledged: nothing written
// (releases, live catalog, draft and audit rows counted).
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { auditLog, catalogReleases } from '@/db/schema';
import type { Draft, DraftWarning } from '@/lib/contract/release';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { adminCall, signedInStaff, type AdminAnswer, type TestStaff } from '@/lib/testing/staff';
import { campaign, mission, newUser } from '@/lib/testing/fixtures';

let server: TestServer;
let editor: TestStaff;
beforeAll(async () => {
  server = await startTestServer();
  editor = await signedInStaff(server, 'editor');
});
afterAll(async () => {
  await server?.close();
});

function call<T = Record<string, unknown>>(method: string, route: string, body?: unknown): Promise<AdminAnswer<T>> {
  return adminCall<T>(server, method, route, body, editor);
}
const draftOf = (appId: string) => `/api/admin/apps/${appId}/draft`;
const coins = (amount: number) => ({ kind: 'currency' as const, currency: 'coins', amount });

async function written(app: TestApp) {
  const db = await getDb();
  const [releases] = await db.select({ n: count() }).from(catalogReleases).where(eq(catalogReleases.appId, app.appId));
  const [audits] = await db.select({ n: count() }).from(auditLog).where(eq(auditLog.appId, app.appId));
  const catalog = (await call('GET', `/api/admin/apps/${app.appId}/catalog`)).body;
  const draft = (await call<Draft>('GET', draftOf(app.appId))).body;
  return { releases: Number(releases.n), audits: Number(audits.n), catalog, draft };
}

describe('the draft’s changes field by field', () => {
  it('answers each changed field before → after: a reward, a count, a budget (as a campaign change), an added and a removed mission', async () => {
    const app = await createTestApp(server, {
      missions: [mission('play-5', { criteria: { eventName: 'play', count: 5 }, reward: coins(100), campaignId: 'spring' }), mission('old')],
      campaigns: [campaign('spring', { budget: [{ currency: 'coins', amount: 1_000 }] })],
    });
    const live = (await call<{ missions: Array<Record<string, unknown>>; campaigns: Array<Record<string, unknown>> }>('GET', `/api/admin/apps/${app.appId}/catalog`)).body;
    const put = await call<Draft>('PUT', draftOf(app.appId), {
      missions: [{ ...live.missions.find((m) => m.id === 'play-5'), criteria: { eventName: 'play', count: 3 }, reward: coins(150) }, mission('new', { title: 'New one' })],
      campaigns: [{ ...live.campaigns[0], missionIds: undefined, budget: [{ currency: 'coins', amount: 800 }, { currency: 'gems', amount: 50 }] }],
    });
    expect(put.status).toBe(200);
    // `changes` keeps its shape; the details come in the same order.
    expect(put.body.changes).toEqual([
      { kind: 'mission', id: 'new', change: 'added' },
      { kind: 'mission', id: 'old', change: 'removed' },
      { kind: 'mission', id: 'play-5', change: 'changed' },
      { kind: 'campaign', id: 'spring', change: 'changed' },
    ]);
    const details = put.body.changeDetails;
    expect(details.map(({ fields: _f, ...c }) => c)).toEqual(put.body.changes);
    const byId = Object.fromEntries(details.map((d) => [d.id, d.fields]));
    expect(byId['play-5']).toEqual([
      { path: 'criteria.count', before: 5, after: 3 },
      { path: 'reward', before: coins(100), after: coins(150) },
    ]);
    expect(byId.spring).toEqual([
      { path: 'budget.coins', before: 1_000, after: 800 },
      { path: 'budget.gems', before: null, after: 50 },
    ]);
    expect(byId.new).toContainEqual({ path: 'title', before: null, after: 'New one' });
    expect(byId.new).toContainEqual({ path: 'reward', before: null, after: { kind: 'currency', currency: 'gems', amount: 10 } });
    expect(byId.old).toContainEqual({ path: 'title', before: 'Mission old', after: null });
    // Nothing here pays ten times more: no warning, and the publish needs no acknowledgement.
    expect(put.body.warnings).toEqual([]);
    expect((await call('POST', `${draftOf(app.appId)}/publish`, {})).status).toBe(200);
  });
});

describe('payout warnings', () => {
  it('names each kind from real completions and claims; publishing now or scheduling answers 409 needs_acknowledgement with them, nothing written; acknowledged, it publishes and the audit keeps them', async () => {
    const app = await createTestApp(server, {
      missions: [
        mission('play-5', { criteria: { eventName: 'play', count: 5 }, reward: coins(100) }),
        mission('done', { criteria: { eventName: 'win', count: 1 } }),
        mission('untouched', { criteria: { eventName: 'nobody', count: 1 } }),
        mission('paid', { criteria: { eventName: 'paid', count: 1 }, campaignId: 'spring', reward: coins(40) }),
      ],
      campaigns: [
        campaign('spring', { budget: [{ currency: 'coins', amount: 1_000 }] }),
        campaign('summer', { budget: [{ currency: 'gems', amount: 100 }, { currency: 'coins', amount: 200 }] }),
      ],
    });
    // Two players complete "done" (one claims it); one claims "paid" (the spring campaign pays 40 coins).
    for (const claimIt of [true, false]) {
      const user = await newUser(server, app);
      expect((await user.event('win')).status).toBe(200);
      if (claimIt) {
        expect((await user.claim('done')).status).toBe(200);
        expect((await user.event('paid')).status).toBe(200);
        expect((await user.claim('paid')).status).toBe(200);
      }
    }
    const live = (await call<{ missions: Array<Record<string, unknown>>; campaigns: Array<Record<string, unknown>> }>('GET', `/api/admin/apps/${app.appId}/catalog`)).body;
    const liveMission = (id: string) => live.missions.find((m) => m.id === id)!;
    const liveCampaign = (id: string) => ({ ...live.campaigns.find((c) => c.id === id)!, missionIds: undefined });
    const put = await call<Draft>('PUT', draftOf(app.appId), {
      missions: [
        { ...liveMission('play-5'), reward: coins(10_000) },
        { ...liveMission('done'), reward: coins(5) },
        { ...liveMission('untouched'), reward: coins(5) },
        liveMission('paid'),
      ],
      campaigns: [
        { ...liveCampaign('spring'), budget: [{ currency: 'coins', amount: 30 }] },
        { ...liveCampaign('summer'), budget: [{ currency: 'gems', amount: 1_000 }] },
      ],
    });
    expect(put.status).toBe(200);
    const warnings = put.body.warnings;
    const pick = (w: DraftWarning) => ({ code: w.code, kind: w.kind, id: w.id, path: w.path });
    expect(warnings.map(pick)).toEqual([
      { code: 'reward_multiplied', kind: 'mission', id: 'play-5', path: 'reward' },
      { code: 'reward_added_to_completed', kind: 'mission', id: 'done', path: 'reward' },
      { code: 'budget_below_spent', kind: 'campaign', id: 'spring', path: 'budget.coins' },
      { code: 'budget_removed', kind: 'campaign', id: 'summer', path: 'budget.coins' },
      { code: 'reward_multiplied', kind: 'campaign', id: 'summer', path: 'budget.gems' },
    ]);
    expect(warnings[0]).toMatchObject({ factor: 100, before: 100, after: 10_000, message: 'Mission "play-5": reward 100 coins → 10,000 coins (×100)' });
    // Completed by two players (one of them claimed it); "untouched" got a new reward too, but nobody completed it.
    expect(warnings[1]).toMatchObject({ players: 2, after: ['coins'] });
    expect(warnings[2]).toMatchObject({ before: 1_000, after: 30, spent: 40 });
    expect(warnings[3]).toMatchObject({ before: 200, after: null, spent: 0 });
    expect(warnings[4]).toMatchObject({ factor: 10, before: 100, after: 1_000 });

    const before = await written(app);
    for (const body of [{}, { at: Date.now() + 60_000 }, { acknowledgeWarnings: false }]) {
      const refused = await call<{ error: string; message: string; warnings: DraftWarning[] }>('POST', `${draftOf(app.appId)}/publish`, body);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe('needs_acknowledgement');
      expect(refused.body.warnings).toEqual(warnings);
      expect(refused.body.message).toContain('acknowledgeWarnings: true');
      expect(refused.body.message).toContain('10,000 coins');
    }
    expect(await written(app)).toEqual(before);
    expect(before.draft.scheduledAt).toBeNull();

    const published = await call<{ release: number }>('POST', `${draftOf(app.appId)}/publish`, { acknowledgeWarnings: true });
    expect(published.status).toBe(200);
    expect(published.body.release).toBe(before.releases + 1);
    const db = await getDb();
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.appId, app.appId), eq(auditLog.action, 'draft.publish')));
    expect(audit.after).toMatchObject({ acknowledgedWarnings: warnings });
  });

  it('a scheduled publish is acknowledged when it is scheduled', async () => {
    const app = await createTestApp(server, { missions: [mission('m', { reward: coins(1) })], campaigns: [] });
    await call('PUT', draftOf(app.appId), { missions: [mission('m', { reward: coins(50) })], campaigns: [] });
    const at = Date.now() + 3_600_000;
    expect((await call('POST', `${draftOf(app.appId)}/publish`, { at })).status).toBe(409);
    expect((await call<Draft>('GET', draftOf(app.appId))).body.schedule).toBeNull();
    expect((await call('POST', `${draftOf(app.appId)}/publish`, { at, acknowledgeWarnings: true })).status).toBe(202);
    expect((await call<Draft>('GET', draftOf(app.appId))).body.schedule).toMatchObject({ scheduledAt: at });
    const db = await getDb();
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.appId, app.appId), eq(auditLog.action, 'draft.schedule')));
    expect(audit.after).toMatchObject({ scheduledAt: at, acknowledgedWarnings: [{ code: 'reward_multiplied', factor: 50 }] });
  });
});
