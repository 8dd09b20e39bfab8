// The staff mission verbs (completeMission, resetMission) called directly with
// a ServiceContext, no server: the rules the support desk relies on. A
// completion is refused (409 conflict) when the mission is already completed or
// claimed in this window; a reset of a claimed record starts its next cycle
// (a new ledger grant key) and takes no reward back; an unknown or archived
// mission is mission_not_found; the record, the player's change number and the
// audit row are written in one transaction, the stream update published only
// after commit; the Idempotency-Key replays the first answer.
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { auditLog, progress } from '@/db/schema';
import { buildCatalog } from '@/lib/catalog/catalog';
import { missionSchema } from '@/lib/contract/mission';
import { windowStart } from '@/lib/missions/windows';
import { mission } from '@/lib/testing/fixtures';
import { testServiceContext, type TestServiceContext } from '@/lib/testing/service-context';
import { uniqueId } from '@/lib/testing/test-env';
import { withTransaction, type ServiceContext } from '../context';
import { completeMission } from './complete-mission';
import { resetMission } from './reset-mission';

const NOW = Date.UTC(2026, 10, 20, 12);
const DAY = 86_400_000;

let base: TestServiceContext;
let db: Db;

beforeAll(async () => {
  base = await testServiceContext('mission-action', { actor: { kind: 'staff', id: 'sam@example.com', role: 'support' }, now: NOW });
  db = base.db;
});

/** A context for a fresh app whose catalog has a daily mission (3 plays), a lifetime one and an archived one; `published` records the stream. */
function appContext() {
  const appId = uniqueId('app');
  const catalog = buildCatalog(
    appId,
    [
      missionSchema.parse(mission('daily', { criteria: { eventName: 'play', count: 3, window: 'daily' } })),
      missionSchema.parse(mission('once', { criteria: { eventName: 'play', count: 2 } })),
      missionSchema.parse({ ...mission('gone'), archived: true }),
    ],
    [],
    NOW,
  );
  const published: TestServiceContext['published'] = [];
  const ctx: ServiceContext = {
    ...base.ctx,
    appId,
    deps: { ...base.ctx.deps, catalog: async () => catalog, publish: async (_a, userId, seq, updates) => void published.push({ userId, seq, updates }) },
  };
  return { ctx, appId, published };
}

// createUser: the players of these tests have no stored user row (issue 39 §4 refuses a never-seen player without it).
const input = (missionId: string, extra: { reason?: string; idempotencyKey?: string | null; userId?: string } = {}) => ({
  userId: extra.userId ?? 'u1',
  missionId,
  reason: extra.reason ?? 'ticket 42',
  idempotencyKey: extra.idempotencyKey ?? null,
  createUser: true,
});

const recordOf = async (appId: string, missionId: string) =>
  (await db.select().from(progress).where(and(eq(progress.appId, appId), eq(progress.userId, 'u1'), eq(progress.missionId, missionId))))[0];

describe('completeMission({ ctx, input })', () => {
  it('completes in the current window, audits with the reason and publishes mission.completed after commit', async () => {
    const { ctx, appId, published } = appContext();
    const outcome = await completeMission({ ctx, input: input('daily') });
    const today = windowStart('daily', NOW, 'UTC');
    expect(outcome.body.progress).toMatchObject({ missionId: 'daily', status: 'completed', currentCount: 3, targetCount: 3 });
    expect(await recordOf(appId, 'daily')).toMatchObject({ status: 'completed', currentCount: 3, targetCount: 3, cycle: 1, windowStart: today, updatedAt: NOW, state: null });
    const audit = await db.select().from(auditLog).where(eq(auditLog.appId, appId));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'staff:sam@example.com', action: 'user.mission_complete', target: 'user:u1', at: NOW });
    expect(audit[0].before).toEqual({ missionId: 'daily', record: null });
    expect(audit[0].after).toMatchObject({ missionId: 'daily', reason: 'ticket 42', record: { status: 'completed', currentCount: 3, cycle: 1 } });
    expect(published).toEqual([{ userId: 'u1', seq: 1, updates: [{ type: 'mission.completed', data: outcome.body.progress }] }]);
  });

  it('refuses a mission already completed, or claimed in this window, with 409 conflict and writes nothing more', async () => {
    const { ctx, appId, published } = appContext();
    await completeMission({ ctx, input: input('daily') });
    await expect(completeMission({ ctx, input: input('daily') })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('already completed') });
    await db.update(progress).set({ status: 'claimed' }).where(and(eq(progress.appId, appId), eq(progress.missionId, 'daily')));
    await expect(completeMission({ ctx, input: input('daily') })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('already claimed') });
    expect(await db.select().from(auditLog).where(eq(auditLog.appId, appId))).toHaveLength(1);
    expect(published).toHaveLength(1);
  });

  it('a record claimed in an earlier window completes as its next cycle', async () => {
    const { ctx, appId } = appContext();
    await db.insert(progress).values({ appId, userId: 'u1', missionId: 'daily', status: 'claimed', currentCount: 3, targetCount: 3, windowStart: windowStart('daily', NOW - DAY, 'UTC'), cycle: 4, updatedAt: NOW - DAY });
    const outcome = await completeMission({ ctx, input: input('daily') });
    expect(outcome.body.progress.status).toBe('completed');
    expect(await recordOf(appId, 'daily')).toMatchObject({ status: 'completed', cycle: 5, windowStart: windowStart('daily', NOW, 'UTC') });
  });

  it('refuses an unknown or archived mission with mission_not_found before any write', async () => {
    const { ctx, appId } = appContext();
    await expect(completeMission({ ctx, input: input('nope') })).rejects.toMatchObject({ code: 'mission_not_found' });
    await expect(completeMission({ ctx, input: input('gone') })).rejects.toMatchObject({ code: 'mission_not_found' });
    expect(await db.select().from(auditLog).where(eq(auditLog.appId, appId))).toEqual([]);
  });

  it('replays the first answer under the same Idempotency-Key and refuses the key with another request (422)', async () => {
    const { ctx, appId, published } = appContext();
    const first = await completeMission({ ctx, input: input('once', { idempotencyKey: 'k1' }) });
    expect(first.replay).toBeNull();
    const again = await completeMission({ ctx, input: input('once', { idempotencyKey: 'k1' }) });
    expect(again.replay).not.toBeNull();
    expect(again.body).toEqual(first.body);
    await expect(completeMission({ ctx, input: input('once', { idempotencyKey: 'k1', reason: 'another reason' }) })).rejects.toMatchObject({ status: 422 });
    expect(await db.select().from(auditLog).where(eq(auditLog.appId, appId))).toHaveLength(1);
    expect(published).toHaveLength(1);
  });

  it('nests in a caller transaction: a rollback takes the record and the audit row, and nothing is published', async () => {
    const { ctx, appId, published } = appContext();
    await expect(
      withTransaction(ctx, async (tx) => {
        await completeMission({ ctx: tx, input: input('daily') });
        throw new Error('caller fails after the verb');
      }),
    ).rejects.toThrow('caller fails');
    expect(await recordOf(appId, 'daily')).toBeUndefined();
    expect(await db.select().from(auditLog).where(eq(auditLog.appId, appId))).toEqual([]);
    expect(published).toEqual([]);
  });
});

describe('resetMission({ ctx, input })', () => {
  it('returns a completed record to no progress in the same cycle, publishes mission.progress with the next change number', async () => {
    const { ctx, appId, published } = appContext();
    await completeMission({ ctx, input: input('daily') });
    const outcome = await resetMission({ ctx, input: input('daily', { reason: 'wrong player' }) });
    expect(outcome.body.progress).toMatchObject({ missionId: 'daily', status: 'active', currentCount: 0, targetCount: 3 });
    expect(await recordOf(appId, 'daily')).toMatchObject({ status: 'active', currentCount: 0, cycle: 1 });
    expect(published.map((p) => [p.seq, p.updates[0].type])).toEqual([
      [1, 'mission.completed'],
      [2, 'mission.progress'],
    ]);
    const audit = await db.select().from(auditLog).where(and(eq(auditLog.appId, appId), eq(auditLog.action, 'user.mission_reset')));
    expect(audit).toHaveLength(1);
    expect(audit[0].before).toMatchObject({ record: { status: 'completed', currentCount: 3, cycle: 1 } });
    expect(audit[0].after).toMatchObject({ reason: 'wrong player', record: { status: 'active', currentCount: 0, cycle: 1 } });
  });

  it('a claimed record starts its next cycle (the next claim is a new ledger grant) and drops the running state', async () => {
    const { ctx, appId } = appContext();
    await db.insert(progress).values({ appId, userId: 'u1', missionId: 'once', status: 'claimed', currentCount: 2, targetCount: 2, windowStart: 0, cycle: 2, updatedAt: NOW - DAY, state: { kind: 'sum', sum: '2' } as never });
    await resetMission({ ctx, input: input('once') });
    expect(await recordOf(appId, 'once')).toMatchObject({ status: 'active', currentCount: 0, cycle: 3, state: null });
  });

  it('resets a player without a record to cycle 1, and refuses an archived mission', async () => {
    const { ctx, appId } = appContext();
    await resetMission({ ctx, input: input('once') });
    expect(await recordOf(appId, 'once')).toMatchObject({ status: 'active', currentCount: 0, cycle: 1 });
    await expect(resetMission({ ctx, input: input('gone') })).rejects.toMatchObject({ code: 'mission_not_found' });
  });
});
