// Several instances of the production build on one PostgreSQL and one Redis:
// two started as `npm start` starts them (the custom server), and one as
// `next start` (the Next.js route files, what a serverless platform runs,
// where the instrumentation hook and the routes are separate chunks). Every
// rate limit is one count across all of them: 60 requests to each instance
// with one token, at most the limit accepted in total.
// PGlite is one process per data directory, so the embedded pass skips this
// suite; CI's PostgreSQL + Redis pass runs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFrom } from '@/lib/testing/http-from';
import { describeWithBuild, startProduction, type Instance } from '@/lib/testing/production';

const shared = Boolean(process.env.DATABASE_URL?.trim() && process.env.REDIS_URL?.trim());
const ADMIN_KEY = 'instances-admin-key-0123456789';
const PER_INSTANCE = 60;
const WINDOW_MS = 60_000;

/**
 * The sliding window is the usual two-bucket estimate (docs/operations/README.md): a
 * burst that straddles a window boundary can get one request more than the
 * limit. Each burst here takes a few seconds; start it early in a window.
 */
async function freshWindow(): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < 20_000) await new Promise((r) => setTimeout(r, left + 50));
}

function suite(): void {
  let instances: Instance[] = [];
  let app: { appId: string; appSecret: string };

  beforeAll(async () => {
    const env = { ADMIN_API_KEY: ADMIN_KEY, QUESTLINE_QUIET: '1' };
    // All at once: migrations are serialised by the advisory lock. The `next start` one sits behind
    // a proxy as serverless deployments do (TRUST_PROXY=1; the test sends the header a proxy would).
    instances = await Promise.all([
      startProduction({ env }),
      startProduction({ env }),
      startProduction({ env: { ...env, TRUST_PROXY: '1' }, nextStart: true }),
    ]);
    const appId = `inst-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    const created = await fetch(`${instances[0].url}/api/admin/apps`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: appId, name: 'Instances' }),
    });
    expect(created.status).toBe(201);
    app = { appId, appSecret: ((await created.json()) as { appSecret: string }).appSecret };
    const put = await fetch(`${instances[1].url}/api/admin/apps/${appId}/catalog`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ missions: [{ id: 'far', title: 'Far', criteria: { eventName: 'never', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 1 } }] }),
    });
    expect(put.status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
  });

  /** What each of the three instances was asked, all at once: PER_INSTANCE requests each. */
  async function burst(send: (instance: Instance, i: number) => Promise<number>): Promise<number[]> {
    const statuses = await Promise.all(
      instances.map(async (instance) => {
        const out: number[] = [];
        for (let i = 0; i < PER_INSTANCE; i++) out.push(await send(instance, i));
        return out;
      }),
    );
    return statuses.flat();
  }

  async function token(userId: string): Promise<string> {
    const res = await httpFrom('127.0.0.1', `${instances[0].url}/v1/auth/token`, { body: { ...app, userId } });
    expect(res.status).toBe(200);
    return (res.body as { accessToken: string }).accessToken;
  }

  it(`events: ${PER_INSTANCE} to each instance with one token, 100 accepted in total`, async () => {
    const userId = 'events-user';
    const bearer = await token(userId);
    await freshWindow();
    const statuses = await burst(async (instance, i) => {
      const res = await fetch(`${instance.url}/v1/events`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ userId, name: 'played', payload: { i }, timestamp: Date.now() }),
      });
      await res.arrayBuffer();
      return res.status;
    });
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
  });

  it(`claims: ${PER_INSTANCE} to each instance with one token, 30 past the limiter in total`, async () => {
    const bearer = await token('claims-user');
    await freshWindow();
    const statuses = await burst(async (instance) => {
      const res = await fetch(`${instance.url}/v1/missions/far/claim`, { method: 'POST', headers: { Authorization: `Bearer ${bearer}` } });
      await res.arrayBuffer();
      return res.status;
    });
    // Not completed: every claim the limiter lets through answers 409 claim_not_ready.
    expect(statuses.filter((s) => s !== 409 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 409)).toHaveLength(30);
  });

  it(`failed token requests: ${PER_INSTANCE} wrong secrets to each instance from one address, 10 counted in total`, async () => {
    await freshWindow();
    const statuses = await burst(async (instance) => {
      // The `next start` instance trusts one proxy: this is the header that proxy would send for 127.0.0.1.
      const res = await httpFrom('127.0.0.1', `${instance.url}/v1/auth/token`, {
        body: { appId: app.appId, appSecret: 'wrong', userId: 'u' },
        headers: { 'X-Forwarded-For': '127.0.0.1' },
      });
      return res.status;
    });
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
  });
}

if (shared) {
  describeWithBuild('three production instances on shared PostgreSQL + Redis', suite);
} else {
  describe.skip('three production instances on shared PostgreSQL + Redis — skipped: set DATABASE_URL and REDIS_URL (the embedded database is one process per data directory, so the embedded pass cannot run several instances)', suite);
}
