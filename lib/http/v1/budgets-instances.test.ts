// Campaign budgets across two server PROCESSES (scripts/serve.ts) on one
// PostgreSQL and one Redis: 50 concurrent claims of different users, half on
// each instance, against a budget with room for 10 grant exactly 10, and each
// alert is recorded once. Skipped on the embedded default (single-instance by
// design; lib/http/v1/budgets.test.ts races 50 claims on one instance there).
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb, closeDb } from '@/db/client';
import { campaignBudgetAlerts, campaignBudgetSpent, ledger, progress } from '@/db/schema';
import { campaign, mission } from '@/lib/testing/fixtures';
import { sharedStores as shared, startInstance, type Instance } from '@/lib/testing/instance';
import { createTestApp, issueToken, uniqueId, userClient, type TestApp } from '@/lib/testing/test-server';

function suite(): void {
  let a: Instance;
  let b: Instance;
  let app: TestApp;

  beforeAll(async () => {
    [a, b] = await Promise.all([startInstance('A'), startInstance('B')]);
    app = await createTestApp(a, {
      campaigns: [campaign('winter', { title: 'Winter festival', budget: [{ currency: 'gems', amount: 150 }] })],
      missions: [mission('m', { campaignId: 'winter', reward: { kind: 'currency', currency: 'gems', amount: 10 } })],
    });
  }, 240_000);

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await closeDb();
  });

  it('50 concurrent claims on two instances against a budget with room for 10 grant exactly 10; alerts once', async () => {
    const users = await Promise.all(
      Array.from({ length: 55 }, async (_, i) => {
        const server = i % 2 === 0 ? a : b;
        const userId = uniqueId('u');
        const client = userClient(server, await issueToken(server, app, userId));
        const done = await client.post('/v1/events', { userId, name: 'play', payload: {}, timestamp: Date.now() });
        expect(done.status).toBe(200);
        return { userId, client };
      }),
    );
    // 50 of 150 spent first, one at a time: room for 10 more.
    for (const u of users.slice(0, 5)) expect((await u.client.post('/v1/missions/m/claim')).status).toBe(200);
    const racers = users.slice(5);
    const responses = await Promise.all(racers.map((u) => u.client.post('/v1/missions/m/claim')));
    const statuses = responses.map((r) => r.status);
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as Array<{ error?: string }>;
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    for (const [i, body] of bodies.entries()) if (statuses[i] === 409) expect(body.error).toBe('budget_exhausted');

    const db = await getDb();
    expect(await db.select().from(ledger).where(and(eq(ledger.appId, app.appId), eq(ledger.missionId, 'm')))).toHaveLength(15);
    const claimed = await db.select().from(progress).where(and(eq(progress.appId, app.appId), eq(progress.status, 'claimed')));
    expect(claimed).toHaveLength(15);
    const [spent] = await db.select().from(campaignBudgetSpent).where(eq(campaignBudgetSpent.appId, app.appId));
    expect(spent).toMatchObject({ spent: 150, cap: 150 });
    const alerts = await db.select().from(campaignBudgetAlerts).where(eq(campaignBudgetAlerts.appId, app.appId));
    expect(alerts.map((r) => r.threshold).sort((x, y) => x - y)).toEqual([80, 100]);

    // Each instance's read answers the same exact figures.
    for (const server of [a, b]) {
      const res = await fetch(`${server.url}/api/admin/apps/${app.appId}/campaigns/winter`, { headers: { Authorization: `Bearer ${server.adminKey}` } });
      const { campaign: read } = (await res.json()) as { campaign: { budgetSpent: Record<string, number>; budgetAlerts: Array<{ threshold: number }> } };
      expect(read.budgetSpent).toEqual({ gems: 150 });
      expect(read.budgetAlerts.map((x) => x.threshold)).toEqual([80, 100]);
    }
  });
}

if (shared) {
  describe('campaign budgets on two server processes (shared PostgreSQL + Redis)', suite);
} else {
  describe.skip('campaign budgets on two processes — skipped: set DATABASE_URL and REDIS_URL (the embedded store is single-instance by design)', suite);
}
