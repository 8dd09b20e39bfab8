// The webhook's per-app limit (counted in events, not requests: 60,000 per
// 60 s by default, or the app's own, set with PATCH /api/admin/apps/:appId,
// audited, admins only) and webhook secret rotation from the admin API (the
// previous secret accepted during a grace period).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, desc, eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { apps, auditLog, events } from '@/db/schema';
import { createTestApp, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { sendDelivery, whEvent } from '@/lib/testing/webhook';
import { freshWindowInProcess } from '@/lib/testing/rate-window';
import { setServerClock } from '@/lib/testing/clock';

let server: TestServer;

beforeAll(async () => {
  // The grace period's end is tested by moving the service clock, not by waiting for it.
  process.env.QUESTLINE_TEST_CLOCK = '1';
  server = await startTestServer();
});
afterAll(async () => {
  if (server) await setServerClock(server.url, server.adminKey, null).catch(() => undefined);
  delete process.env.QUESTLINE_TEST_CLOCK;
  await server?.close();
});


async function storedCount(appId: string): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(events).where(eq(events.appId, appId));
  return Number(row.n);
}

async function adminCall(method: string, path: string, body?: unknown, key = server.adminKey): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const setLimit = (appId: string, webhookEventsPerMinute: unknown) => adminCall('PATCH', `/api/admin/apps/${appId}`, { webhookEventsPerMinute });

/** A fresh app whose own webhook limit is `limit` events per minute. */
async function appLimitedTo(limit: number): Promise<TestApp> {
  const app = await createTestApp(server);
  const set = await setLimit(app.appId, limit);
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  return app;
}

const delivery = (n: number, userId = uniqueId('u')) => ({ events: Array.from({ length: n }, () => whEvent(userId, 'noop')) });

describe('POST /v1/webhook/incoming: the per-app limit, in events per 60 s', () => {
  it('by default takes 61 deliveries of 100 events within one minute from a fresh app (60,000 a minute), all accepted', async () => {
    const app = await createTestApp(server);
    freshWindowInProcess(50_000);
    const remaining: number[] = [];
    const statuses: number[] = [];
    let next = 0;
    // Four workers, as a game backend sends: 61 × 100 = 6,100 events, each delivery for its own 10 players
    // (deliveries over the same players queue on their locks: not what this test is about).
    const worker = async () => {
      while (next < 61) {
        next++;
        const players = Array.from({ length: 10 }, () => uniqueId('u'));
        const sent = await sendDelivery(server, app, { events: Array.from({ length: 100 }, (_, k) => whEvent(players[k % 10], 'noop')) });
        statuses.push(sent.status);
        expect(sent.res.headers.get('ratelimit-limit')).toBe('60000');
        remaining.push(Number(sent.res.headers.get('ratelimit-remaining')));
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    expect(statuses).toEqual(Array(61).fill(200));
    // Every delivery was counted (a slow machine may spread the burst over two windows, so the sliding window's remaining is a bound, not an exact figure).
    expect(Math.min(...remaining)).toBeGreaterThanOrEqual(60_000 - 6_100);
    expect(Math.min(...remaining)).toBeLessThan(60_000 - 100);
    expect(await storedCount(app.appId)).toBe(6_100);
    // 6,100 events take 40 s on PostgreSQL and 90 s or more on the embedded database on this loaded machine.
  }, 300_000);

  it('counts events, not requests: with the app’s limit set to 1,000, ten deliveries of 100 pass, one more event is refused with 429 and the RateLimit headers', async () => {
    const app = await appLimitedTo(1000);
    freshWindowInProcess(45_000);
    const accepted = [];
    for (let i = 0; i < 10; i++) {
      const sent = await sendDelivery(server, app, delivery(100));
      expect(sent.status, `delivery ${i + 1}`).toBe(200);
      expect(sent.res.headers.get('ratelimit-limit')).toBe('1000');
      expect(sent.res.headers.get('ratelimit-remaining')).toBe(String(1000 - 100 * (i + 1)));
      accepted.push(sent);
    }
    const userId = uniqueId('u');
    const refused = await sendDelivery(server, app, delivery(1, userId));
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('rate_limited');
    const retryAfterMs = refused.body.retryAfterMs as number;
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(refused.res.headers.get('retry-after')).toBe(String(Math.ceil(retryAfterMs / 1000)));
    expect(refused.res.headers.get('ratelimit-limit')).toBe('1000');
    expect(refused.res.headers.get('ratelimit-remaining')).toBe('0');
    expect(await storedCount(app.appId)).toBe(1000);

    // A replay changes nothing, so it is answered (from the cache) and not counted.
    const replay = await sendDelivery(server, app, accepted[0].rawBody, { webhookId: accepted[0].webhookId });
    expect(replay.status).toBe(200);
    expect(replay.res.headers.get('x-idempotent-replay')).toBe('hit');
    // Another app has its own budget.
    const otherApp = await createTestApp(server);
    expect((await sendDelivery(server, otherApp, delivery(100))).status).toBe(200);
    // Back to the default: the app is let through again at once (a changed limit counts from a fresh window).
    expect((await setLimit(app.appId, null)).status).toBe(200);
    const again = await sendDelivery(server, app, delivery(100));
    expect(again.status).toBe(200);
    expect(again.res.headers.get('ratelimit-limit')).toBe('60000');
  });

  it('refuses a delivery whose events do not all fit, without counting them: the ones that fit still pass', async () => {
    const app = await appLimitedTo(1000);
    freshWindowInProcess(45_000);
    for (let i = 0; i < 9; i++) expect((await sendDelivery(server, app, delivery(100))).status).toBe(200);
    expect((await sendDelivery(server, app, delivery(60))).status).toBe(200);
    // 960 used: 41 do not fit, and refusing them takes nothing from the 40 left.
    const tooMany = await sendDelivery(server, app, delivery(41));
    expect(tooMany.status).toBe(429);
    const fits = await sendDelivery(server, app, delivery(40));
    expect(fits.status).toBe(200);
    expect(fits.res.headers.get('ratelimit-remaining')).toBe('0');
    expect(await storedCount(app.appId)).toBe(1000);
  });

  it('does not count deliveries refused for their signature or body', async () => {
    const app = await createTestApp(server);
    freshWindowInProcess(30_000);
    for (let i = 0; i < 20; i++) {
      expect((await sendDelivery(server, app, delivery(100), { secret: 'whs_wrong' })).status).toBe(401);
      expect((await sendDelivery(server, app, { events: [...delivery(99).events, { bad: true }] })).status).toBe(400);
    }
    const sent = await sendDelivery(server, app, delivery(100));
    expect(sent.status).toBe(200);
    expect(sent.res.headers.get('ratelimit-remaining')).toBe('59900');
  });
});

describe('PATCH /api/admin/apps/:appId: the app’s webhook limit', () => {
  it('sets it, shows it in the app list, and records before and after in the audit log', async () => {
    const app = await createTestApp(server);
    const list = async () =>
      ((await (await fetch(`${server.url}/api/admin/apps`, { headers: { Authorization: `Bearer ${server.adminKey}` } })).json()) as { apps: Array<Record<string, unknown>> }).apps.find(
        (a) => a.id === app.appId,
      );
    expect((await list())?.webhookEventsPerMinute).toBeNull();
    const set = await setLimit(app.appId, 120_000);
    expect(set.status).toBe(200);
    expect(set.body.app).toMatchObject({ id: app.appId, webhookEventsPerMinute: 120_000 });
    expect((await list())?.webhookEventsPerMinute).toBe(120_000);
    const sent = await sendDelivery(server, app, delivery(1));
    expect(sent.res.headers.get('ratelimit-limit')).toBe('120000');

    const db = await getDb();
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.appId, app.appId), eq(auditLog.action, 'app.update')))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(entry).toMatchObject({ target: `app:${app.appId}`, before: { webhookEventsPerMinute: null }, after: { webhookEventsPerMinute: 120_000 } });
    expect(JSON.stringify(entry)).not.toContain(app.webhookSecret);

    expect((await setLimit(app.appId, null)).body.app).toMatchObject({ webhookEventsPerMinute: null });
    const [row] = await db.select().from(apps).where(eq(apps.id, app.appId));
    expect(row.webhookEventsPerMinute).toBeNull();
  });

  it.each([
    ['zero', { webhookEventsPerMinute: 0 }, 'webhookEventsPerMinute: at least 1'],
    ['a negative number', { webhookEventsPerMinute: -5 }, 'webhookEventsPerMinute: at least 1'],
    ['a fraction', { webhookEventsPerMinute: 1.5 }, 'webhookEventsPerMinute'],
    ['a string', { webhookEventsPerMinute: '5000' }, 'webhookEventsPerMinute'],
    ['more than 1,000,000', { webhookEventsPerMinute: 1_000_001 }, 'webhookEventsPerMinute: at most 1000000'],
    ['an unknown field', { webhookLimit: 5000 }, 'webhookLimit'],
    ['an empty object', {}, 'at least one of'],
  ])('answers 400 validation_error for %s, naming the field, changing nothing', async (_name, body, message) => {
    const app = await createTestApp(server);
    const res = await adminCall('PATCH', `/api/admin/apps/${app.appId}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_error');
    expect(res.body.message).toContain(message);
    const db = await getDb();
    const [row] = await db.select().from(apps).where(eq(apps.id, app.appId));
    expect(row.webhookEventsPerMinute).toBeNull();
  });

  it('answers 404 app_not_found for an unknown app and 401 without the admin key', async () => {
    const missing = await setLimit(uniqueId('nope'), 5000);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('app_not_found');
    const app = await createTestApp(server);
    expect((await adminCall('PATCH', `/api/admin/apps/${app.appId}`, { webhookEventsPerMinute: 5 }, 'not-the-admin-key-0123456789')).status).toBe(401);
  });
});

const admin = (path: string, body?: unknown, key = server.adminKey) => adminCall('POST', path, body, key);

const rotate = (app: TestApp, body?: unknown) => admin(`/api/admin/apps/${app.appId}/rotate-webhook-secret`, body);
const accepted = async (app: TestApp, secret: string) => (await sendDelivery(server, app, delivery(1), { secret })).status;

describe('POST /api/admin/apps/:appId/rotate-webhook-secret', () => {
  it('answers a new secret; the new one works at once and the previous one for 24 h by default', async () => {
    const app = await createTestApp(server);
    const before = Date.now();
    const rotated = await rotate(app);
    expect(rotated.status).toBe(200);
    expect(Object.keys(rotated.body).sort()).toEqual(['appId', 'previousSecretExpiresAt', 'webhookSecret']);
    const { webhookSecret, previousSecretExpiresAt } = rotated.body as { webhookSecret: string; previousSecretExpiresAt: number };
    expect(webhookSecret).toMatch(/^whs_/);
    expect(webhookSecret).not.toBe(app.webhookSecret);
    expect(previousSecretExpiresAt).toBeGreaterThanOrEqual(before + 24 * 3_600_000);
    expect(previousSecretExpiresAt).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
    expect(await accepted(app, webhookSecret)).toBe(200);
    expect(await accepted(app, app.webhookSecret)).toBe(200);
    expect(await accepted(app, 'whs_wrong')).toBe(401);
  });

  it('stops accepting the previous secret when its grace period is over', async () => {
    const app = await createTestApp(server);
    const rotated = await rotate(app, { gracePeriodSeconds: 3_600 });
    expect(rotated.status).toBe(200);
    const ends = rotated.body.previousSecretExpiresAt as number;
    try {
      // A second before the end the previous secret still works; a second after it, not.
      await setServerClock(server.url, server.adminKey, ends - 1_000);
      expect(await accepted(app, app.webhookSecret)).toBe(200);
      await setServerClock(server.url, server.adminKey, ends + 1_000);
      expect(await accepted(app, app.webhookSecret)).toBe(401);
      expect(await accepted(app, rotated.body.webhookSecret as string)).toBe(200);
    } finally {
      await setServerClock(server.url, server.adminKey, null);
    }
  });

  it('with gracePeriodSeconds 0 ends the previous secret at once (a leaked secret)', async () => {
    const app = await createTestApp(server);
    const rotated = await rotate(app, { gracePeriodSeconds: 0 });
    expect(rotated.body.previousSecretExpiresAt).toBeNull();
    expect(await accepted(app, app.webhookSecret)).toBe(401);
    expect(await accepted(app, rotated.body.webhookSecret as string)).toBe(200);
  });

  it('keeps at most two secrets: a second rotation ends the oldest at once', async () => {
    const app = await createTestApp(server);
    const first = await rotate(app);
    const second = await rotate(app);
    expect(await accepted(app, app.webhookSecret)).toBe(401);
    expect(await accepted(app, first.body.webhookSecret as string)).toBe(200);
    expect(await accepted(app, second.body.webhookSecret as string)).toBe(200);
  });

  it('is audited without any secret', async () => {
    const app = await createTestApp(server);
    const rotated = await rotate(app);
    const db = await getDb();
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.appId, app.appId), eq(auditLog.action, 'app.rotate_webhook_secret')))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(entry).toMatchObject({ actor: expect.any(String), target: `app:${app.appId}` });
    const text = JSON.stringify(entry);
    expect(text).not.toContain(rotated.body.webhookSecret as string);
    expect(text).not.toContain(app.webhookSecret);
    // The app list never shows webhook secrets either.
    const list = await (await fetch(`${server.url}/api/admin/apps`, { headers: { Authorization: `Bearer ${server.adminKey}` } })).text();
    expect(list).not.toContain(rotated.body.webhookSecret as string);
    expect(list).not.toContain(app.webhookSecret);
    const [row] = await db.select().from(apps).where(eq(apps.id, app.appId));
    expect(row.previousWebhookSecret).toBe(app.webhookSecret);
  });

  it.each([
    ['a negative grace period', { gracePeriodSeconds: -1 }],
    ['a grace period over 7 days', { gracePeriodSeconds: 7 * 86_400 + 1 }],
    ['a fractional grace period', { gracePeriodSeconds: 1.5 }],
    ['an unknown field', { grace: 10 }],
  ])('answers 400 validation_error for %s, rotating nothing', async (_name, body) => {
    const app = await createTestApp(server);
    const res = await rotate(app, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_error');
    expect(await accepted(app, app.webhookSecret)).toBe(200);
  });

  it('answers 404 app_not_found for an unknown app and 401 without the admin key', async () => {
    expect((await admin(`/api/admin/apps/${uniqueId('nope')}/rotate-webhook-secret`)).body.error).toBe('app_not_found');
    const app = await createTestApp(server);
    const res = await admin(`/api/admin/apps/${app.appId}/rotate-webhook-secret`, undefined, 'not-the-admin-key-0123456789');
    expect(res.status).toBe(401);
    expect(await accepted(app, app.webhookSecret)).toBe(200);
  });
});
