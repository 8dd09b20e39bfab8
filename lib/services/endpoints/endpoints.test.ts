// The outbound-webhook endpoint verbs called directly with a ServiceContext,
// no server: an endpoint on a private address is refused unless allowed, an
// app holds at most MAX_ENDPOINTS_PER_APP, the secret is shown once (never
// listed), a delete marks its pending deliveries failed and keeps its log
// readable, every write is audited in its transaction, an unknown endpoint or
// delivery is 404.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { auditLog, webhookDeliveries } from '@/db/schema';
import { MAX_ENDPOINTS_PER_APP } from '@/lib/contract/outbound';
import { testServiceContext, type TestServiceContext } from '@/lib/testing/service-context';
import { uniqueId } from '@/lib/testing/test-env';
import { withTransaction, type ServiceContext } from '../context';
import { createEndpoint } from './create-endpoint';
import { deleteEndpoint } from './delete-endpoint';
import { listDeliveries } from './list-deliveries';
import { listEndpoints } from './list-endpoints';
import { redeliver } from './redeliver';

const NOW = 1_764_000_000_000;
// A public address literal (TEST-NET-3): no DNS lookup, not refused.
const PUBLIC_URL = 'https://203.0.113.10/hooks';
let t: TestServiceContext;
let db: Db;

beforeAll(async () => {
  t = await testServiceContext('endpoints', { now: NOW });
  db = t.db;
});

const allowPrivate = process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE;
afterEach(() => {
  if (allowPrivate === undefined) delete process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE;
  else process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE = allowPrivate;
});

const appCtx = (): ServiceContext => ({ ...t.ctx, appId: uniqueId('app') });
const create = (ctx: ServiceContext, url = PUBLIC_URL) => createEndpoint({ ctx, input: { url, events: ['mission.completed'] } });

describe('endpoint verbs', () => {
  it('creates with a secret shown once, lists without it, audits endpoint.create', async () => {
    const ctx = appCtx();
    const created = await create(ctx);
    expect(created).toMatchObject({ url: PUBLIC_URL, events: ['mission.completed'], createdAt: NOW });
    expect(created.id).toMatch(/^ep_/);
    expect(created.secret).toMatch(/^whsec_/);
    const { endpoints } = await listEndpoints({ ctx });
    expect(endpoints).toEqual([{ id: created.id, url: PUBLIC_URL, events: ['mission.completed'], createdAt: NOW }]);
    const audit = await db.select().from(auditLog).where(eq(auditLog.appId, ctx.appId));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'staff:ana@example.com', action: 'endpoint.create', target: `endpoint:${created.id}`, after: { url: PUBLIC_URL, events: ['mission.completed'] } });
  });

  it('refuses loopback, private and link-local addresses (validation_error) unless OUTBOUND_WEBHOOK_ALLOW_PRIVATE=1', async () => {
    const ctx = appCtx();
    delete process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE;
    for (const url of ['http://127.0.0.1:9/x', 'http://10.1.2.3/x', 'http://169.254.169.254/latest', 'http://[::1]/x', 'http://localhost/x']) {
      await expect(create(ctx, url), url).rejects.toMatchObject({ code: 'validation_error' });
    }
    expect((await listEndpoints({ ctx })).endpoints).toEqual([]);
    process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE = '1';
    await expect(create(ctx, 'http://127.0.0.1:9/x')).resolves.toMatchObject({ url: 'http://127.0.0.1:9/x' });
  });

  it(`holds at most ${MAX_ENDPOINTS_PER_APP} live endpoints per app (409 conflict); a deleted one frees its place`, async () => {
    const ctx = appCtx();
    const made = [];
    for (let i = 0; i < MAX_ENDPOINTS_PER_APP; i++) made.push(await create(ctx));
    await expect(create(ctx)).rejects.toMatchObject({ code: 'conflict' });
    await deleteEndpoint({ ctx, input: { endpointId: made[0].id } });
    await expect(create(ctx)).resolves.toMatchObject({ url: PUBLIC_URL });
    expect((await listEndpoints({ ctx })).endpoints).toHaveLength(MAX_ENDPOINTS_PER_APP);
  });

  it('a delete fails the pending deliveries, keeps the delivered ones and the log readable, and audits endpoint.delete', async () => {
    const ctx = appCtx();
    const ep = await create(ctx);
    const delivery = (id: string, status: 'pending' | 'delivered', createdAt: number) => ({
      id,
      appId: ctx.appId,
      endpointId: ep.id,
      userId: 'u1',
      type: 'mission.completed',
      data: {},
      status,
      nextAttemptAt: status === 'pending' ? NOW : null,
      createdAt,
      retryingSince: createdAt,
      deliveredAt: status === 'delivered' ? createdAt : null,
    });
    await db.insert(webhookDeliveries).values([delivery(`${ctx.appId}-d1`, 'delivered', NOW - 2), delivery(`${ctx.appId}-d2`, 'pending', NOW - 1)]);
    await deleteEndpoint({ ctx, input: { endpointId: ep.id } });
    expect((await listEndpoints({ ctx })).endpoints).toEqual([]);
    const { deliveries } = await listDeliveries({ ctx, input: { endpointId: ep.id } });
    expect(deliveries.map((d) => [d.id, d.status, d.nextAttemptAt, d.lastError])).toEqual([
      [`${ctx.appId}-d2`, 'failed', null, 'the endpoint was deleted'],
      [`${ctx.appId}-d1`, 'delivered', null, null],
    ]);
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.appId, ctx.appId), eq(auditLog.action, 'endpoint.delete')));
    expect(audit).toMatchObject({ target: `endpoint:${ep.id}`, before: { url: PUBLIC_URL, events: ['mission.completed'] } });
    // Deleted: no second delete, no redelivery.
    await expect(deleteEndpoint({ ctx, input: { endpointId: ep.id } })).rejects.toMatchObject({ code: 'endpoint_not_found' });
    await expect(redeliver({ ctx, input: { endpointId: ep.id, deliveryId: `${ctx.appId}-d1` } })).rejects.toMatchObject({ code: 'endpoint_not_found' });
  });

  it('answers endpoint_not_found for another app’s endpoint and delivery_not_found for an unknown delivery', async () => {
    const owner = appCtx();
    const ep = await create(owner);
    const other = appCtx();
    await expect(listDeliveries({ ctx: other, input: { endpointId: ep.id } })).rejects.toMatchObject({ code: 'endpoint_not_found' });
    await expect(deleteEndpoint({ ctx: other, input: { endpointId: ep.id } })).rejects.toMatchObject({ code: 'endpoint_not_found' });
    await expect(redeliver({ ctx: owner, input: { endpointId: ep.id, deliveryId: 'nope' } })).rejects.toMatchObject({ code: 'delivery_not_found' });
    expect(await db.select().from(auditLog).where(and(eq(auditLog.appId, owner.appId), eq(auditLog.action, 'endpoint.redeliver')))).toEqual([]);
  });

  it('nests in a caller transaction: a rollback takes the endpoint and its audit row', async () => {
    const ctx = appCtx();
    await expect(
      withTransaction(ctx, async (tx) => {
        await create(tx);
        throw new Error('caller fails after the verb');
      }),
    ).rejects.toThrow('caller fails');
    expect((await listEndpoints({ ctx })).endpoints).toEqual([]);
    expect(await db.select().from(auditLog).where(eq(auditLog.appId, ctx.appId))).toEqual([]);
  });
});
