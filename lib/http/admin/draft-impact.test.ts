// POST /api/admin/apps/:appId/draft/impact over real HTTP: the draft's what-if
// replay of the app's real events (sent through /v1/events here), numbers
// checked against those events; 404 draft_not_found without a draft, 400 for
// days outside 1..90, support may run it (read-only). The replay itself is
// tested directly in lib/services/impact/replay-impact.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { impactReportSchema } from '@/lib/contract/release';
import { createTestApp, startTestServer, type TestServer } from '@/lib/testing/test-server';
import { asStaff, signedInStaff, type TestStaff } from '@/lib/testing/staff';
import { mission, newUser } from '@/lib/testing/fixtures';

let server: TestServer;
let support: TestStaff;
beforeAll(async () => {
  server = await startTestServer();
  support = await signedInStaff(server, 'support');
});
afterAll(async () => {
  await server?.close();
});

type Report = z.output<typeof impactReportSchema>;

async function call<T>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(server.url + route, {
    method,
    headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

const RANKED = mission('ranked-ace', { title: 'Ranked ace', criteria: { eventName: 'match_won', count: 3 }, reward: { kind: 'currency', currency: 'gems', amount: 50 } });
const LOGIN = mission('login', { criteria: { eventName: 'login', count: 1 } });

describe('POST …/draft/impact', () => {
  it('replays the real events with the live catalog and the draft: a lowered count, a removed mission, an added one', async () => {
    const app = await createTestApp(server, { missions: [RANKED, LOGIN], campaigns: [] });
    const impactOf = `/api/admin/apps/${app.appId}/draft/impact`;
    expect((await call<{ error: string }>('POST', impactOf, {})).body.error).toBe('draft_not_found');

    // Three players: 1, 2 and 3 ranked wins; two of them log in.
    const wins = [1, 2, 3];
    for (const [i, n] of wins.entries()) {
      const user = await newUser(server, app);
      for (let k = 0; k < n; k++) expect((await user.event('match_won', { k })).status).toBe(200);
      if (i > 0) expect((await user.event('login')).status).toBe(200);
    }

    // The draft lowers Ranked ace to 2 wins, removes Login and adds a mission on logins.
    const draft = { missions: [{ ...RANKED, criteria: { eventName: 'match_won', count: 2 } }, mission('login-bonus', { criteria: { eventName: 'login', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 5 } })], campaigns: [] };
    expect((await call('PUT', `/api/admin/apps/${app.appId}/draft`, draft)).status).toBe(200);

    const { status, body } = await call<Report>('POST', impactOf, { days: 1 });
    expect(status).toBe(200);
    expect(body.to - body.from).toBe(86_400_000);
    expect(body.events).toBe(6 + 2);
    const byId = Object.fromEntries(body.missions.map((m) => [m.missionId, m]));
    expect(Object.keys(byId).sort()).toEqual(['login', 'login-bonus', 'ranked-ace']);
    expect(byId['ranked-ace']).toEqual({
      missionId: 'ranked-ace',
      change: 'changed',
      live: { inProgress: 2, completed: 1 },
      draft: { inProgress: 1, completed: 2 },
      payout: { live: { gems: 50 }, draft: { gems: 100 } },
      notLive: { live: null, draft: null },
      asIfLive: null,
      // Its one completion (player 3) was never claimed: the observed rate is 0.
      claimRate: { rate: 0, basis: 'mission', claims: 0, completions: 1 },
      payoutAtClaimRate: { live: { gems: 0 }, draft: { gems: 0 } },
    });
    expect(byId.login).toMatchObject({ change: 'removed', live: { inProgress: 0, completed: 2 }, draft: { inProgress: 0, completed: 0 }, payout: { live: { gems: 20 }, draft: {} } });
    expect(byId['login-bonus']).toMatchObject({ change: 'added', live: { completed: 0 }, draft: { completed: 2 }, payout: { live: {}, draft: { coins: 10 } } });

    // Support may run it (read-only), with the default of 30 days.
    const asSupport = await asStaff(server, support.cookie, 'POST', impactOf, {});
    expect(asSupport.status).toBe(200);
    expect(((await asSupport.json()) as Report).to - ((await call<Report>('POST', impactOf, {})).body.from)).toBeGreaterThanOrEqual(30 * 86_400_000 - 60_000);
  });

  it('evaluates a campaign that has not started and a new mission as if live over the period, with the payout at the observed claim rate', async () => {
    const inTenDays = Date.now() + 10 * 86_400_000;
    const winter = { id: 'winter', title: 'Winter cup', startAt: inTenDays, endAt: inTenDays + 7 * 86_400_000 };
    const PLAY = mission('play-2', { title: 'Play 2 matches', campaignId: 'winter', criteria: { eventName: 'match_played', count: 2 }, reward: { kind: 'currency', currency: 'coins', amount: 100 } });
    const FIRST = mission('first-match', { criteria: { eventName: 'match_played', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 10 } });
    const app = await createTestApp(server, { missions: [PLAY, FIRST], campaigns: [winter] });
    // Three players play 3, 2 and 1 matches: each completes first-match; the first two claim it.
    for (const [i, n] of [3, 2, 1].entries()) {
      const user = await newUser(server, app);
      for (let k = 0; k < n; k++) expect((await user.event('match_played', { k })).status).toBe(200);
      if (i < 2) expect((await user.claim('first-match')).status).toBe(200);
    }
    // The draft raises the campaign's reward 100×, first-match's 2×, and adds a mission of 3 matches.
    const draft = {
      missions: [
        { ...PLAY, reward: { kind: 'currency', currency: 'coins', amount: 10_000 } },
        { ...FIRST, reward: { kind: 'currency', currency: 'coins', amount: 20 } },
        mission('play-3', { criteria: { eventName: 'match_played', count: 3 }, reward: { kind: 'currency', currency: 'coins', amount: 30 } }),
      ],
      campaigns: [winter],
    };
    expect((await call('PUT', `/api/admin/apps/${app.appId}/draft`, draft)).status).toBe(200);
    const { status, body } = await call<Report>('POST', `/api/admin/apps/${app.appId}/draft/impact`, { days: 7 });
    expect(status).toBe(200);
    expect(body.events).toBe(6);
    const byId = Object.fromEntries(body.missions.map((m) => [m.missionId, m]));
    // Observed over the 7 days: 3 completions of first-match, 2 claims (the app's only completions).
    const rate = { rate: 2 / 3, claims: 2, completions: 3 };
    expect(byId['play-2']).toEqual({
      missionId: 'play-2',
      change: 'changed',
      // Judged as it was: the campaign had not started, so nothing counted.
      live: { inProgress: 0, completed: 0 },
      draft: { inProgress: 0, completed: 0 },
      payout: { live: {}, draft: {} },
      notLive: { live: 'campaign_not_started', draft: 'campaign_not_started' },
      // As if live over the 7 days: two players complete (3 and 2 matches), one is in progress.
      asIfLive: {
        live: { inProgress: 1, completed: 2 },
        draft: { inProgress: 1, completed: 2 },
        payout: { live: { coins: 200 }, draft: { coins: 20_000 } },
        payoutAtClaimRate: { live: { coins: 133 }, draft: { coins: 13_333 } },
      },
      claimRate: { ...rate, basis: 'app' },
      payoutAtClaimRate: { live: {}, draft: {} },
    });
    expect(byId['first-match']).toEqual({
      missionId: 'first-match',
      change: 'changed',
      live: { inProgress: 0, completed: 3 },
      draft: { inProgress: 0, completed: 3 },
      payout: { live: { coins: 30 }, draft: { coins: 60 } },
      notLive: { live: null, draft: null },
      asIfLive: null,
      claimRate: { ...rate, basis: 'mission' },
      payoutAtClaimRate: { live: { coins: 20 }, draft: { coins: 40 } },
    });
    expect(byId['play-3']).toEqual({
      missionId: 'play-3',
      change: 'added',
      live: { inProgress: 0, completed: 0 },
      draft: { inProgress: 2, completed: 1 },
      payout: { live: {}, draft: { coins: 30 } },
      notLive: { live: null, draft: 'new_mission' },
      asIfLive: { live: { inProgress: 0, completed: 0 }, draft: { inProgress: 2, completed: 1 }, payout: { live: {}, draft: { coins: 30 } }, payoutAtClaimRate: { live: {}, draft: { coins: 20 } } },
      claimRate: { ...rate, basis: 'app' },
      payoutAtClaimRate: { live: {}, draft: { coins: 20 } },
    });
  });

  it('refuses days outside 1 to 90 and unknown fields with validation_error', async () => {
    const app = await createTestApp(server, { missions: [LOGIN], campaigns: [] });
    for (const body of [{ days: 0 }, { days: 91 }, { days: 1.5 }, { days: '7' }, { weeks: 2 }]) {
      const res = await call<{ error: string; message: string }>('POST', `/api/admin/apps/${app.appId}/draft/impact`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('validation_error');
    }
    expect((await call<{ error: string }>('POST', '/api/admin/apps/no-such-app/draft/impact', {})).body.error).toBe('app_not_found');
  });
});
