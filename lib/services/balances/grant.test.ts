// The grant verb called directly with a ServiceContext (in process: the
// embedded database, or DATABASE_URL's): the ledger row and the audit row in
// one transaction, balance.changed published only after commit, and an outer
// transaction (withTransaction reuses it) that rolls back takes everything with it.
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { auditLog, balances, ledger } from '@/db/schema';
import type { SdkUpdate } from '@/lib/contract/updates';
import { AppError } from '@/lib/errors';
import { prepareTestEnv, uniqueId } from '@/lib/testing/test-env';
import { withTransaction, type ServiceContext } from '../context';
import { grant } from './grant';

let db: Db;
let base: Omit<ServiceContext, 'appId' | 'deps'> & { deps: Omit<ServiceContext['deps'], 'publish' | 'eraseStream' | 'catalogChanged'> };

beforeAll(async () => {
  prepareTestEnv();
  const [{ boot }, { getDb }, { getKv }, { getBus }, { logger }, { getCatalog }] = await Promise.all([
    import('@/lib/boot'),
    import('@/db/client'),
    import('@/lib/kv'),
    import('@/lib/bus'),
    import('@/lib/log'),
    import('@/lib/catalog/catalog'),
  ]);
  await boot();
  db = await getDb();
  base = {
    actor: { kind: 'staff', id: 'ana@example.com', role: 'support' },
    now: () => 1_764_000_000_000,
    requestId: 'test-request',
    deps: { db, kv: getKv(), bus: getBus(), log: logger(), catalog: getCatalog },
  };
});

function contextFor(appId: string) {
  const published: Array<{ userId: string; seq: number; updates: SdkUpdate[] }> = [];
  const ctx: ServiceContext = {
    ...base,
    appId,
    deps: { ...base.deps, publish: async (_app, userId, seq, updates) => void published.push({ userId, seq, updates }), eraseStream: async () => {}, catalogChanged: async () => {} },
  };
  return { ctx, published };
}

describe('grant({ ctx, input })', () => {
  it('writes balance, ledger (staff member, reason) and audit together and publishes balance.changed after commit', async () => {
    const appId = uniqueId('app');
    const { ctx, published } = contextFor(appId);
    const outcome = await grant({ ctx, input: { userId: 'u1', currency: 'gold', amount: 30, reason: 'ticket 9', idempotencyKey: null, createUser: true } });
    expect(outcome.body.balance).toEqual({ userId: 'u1', currency: 'gold', amount: 30, updatedAt: 1_764_000_000_000 });
    const [row] = await db.select().from(ledger).where(and(eq(ledger.appId, appId), eq(ledger.userId, 'u1')));
    expect(row).toMatchObject({ amount: 30, balanceAfter: 30, actor: 'staff:ana@example.com', reason: 'ticket 9' });
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.appId, appId));
    expect(audit).toMatchObject({ actor: 'staff:ana@example.com', action: 'user.grant', target: 'user:u1', at: 1_764_000_000_000 });
    expect(published).toEqual([{ userId: 'u1', seq: 1, updates: [{ type: 'balance.changed', data: outcome.body.balance }] }]);
  });

  it('inside an outer transaction that rolls back: nothing stored, nothing published', async () => {
    const appId = uniqueId('app');
    const { ctx, published } = contextFor(appId);
    await expect(
      withTransaction(ctx, async (tx) => {
        await grant({ ctx: tx, input: { userId: 'u1', currency: 'gold', amount: 30, reason: 'ticket 9', idempotencyKey: null, createUser: true } });
        throw new Error('the caller fails after the grant');
      }),
    ).rejects.toThrow('the caller fails');
    expect(await db.select().from(balances).where(eq(balances.appId, appId))).toEqual([]);
    expect(await db.select().from(ledger).where(eq(ledger.appId, appId))).toEqual([]);
    expect(await db.select().from(auditLog).where(eq(auditLog.appId, appId))).toEqual([]);
    expect(published).toEqual([]);
  });

  it('a correction below zero throws insufficient_balance and leaves no trace', async () => {
    const appId = uniqueId('app');
    const { ctx, published } = contextFor(appId);
    await grant({ ctx, input: { userId: 'u1', currency: 'gold', amount: 5, reason: 'start', idempotencyKey: null, createUser: true } });
    const refused = grant({ ctx, input: { userId: 'u1', currency: 'gold', amount: -6, reason: 'too much', idempotencyKey: 'k' } });
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({ code: 'insufficient_balance' });
    expect(await db.select().from(ledger).where(eq(ledger.appId, appId))).toHaveLength(1);
    expect(await db.select().from(auditLog).where(eq(auditLog.appId, appId))).toHaveLength(1);
    expect(published).toHaveLength(1);
    // The key stored nothing: the same key works for a valid request.
    const later = await grant({ ctx, input: { userId: 'u1', currency: 'gold', amount: -5, reason: 'right amount', idempotencyKey: 'k2' } });
    expect(later.body.balance.amount).toBe(0);
  });
});
