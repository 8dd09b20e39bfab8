// Webhook deliveries across server processes on shared PostgreSQL + Redis: a
// replay on another instance answers the original (cache, then database); a
// process killed (SIGKILL) in the middle of a delivery leaves it unapplied, and
// the sender's retry on another instance applies it exactly once. The embedded
// database belongs to one process, so this runs in CI's PostgreSQL + Redis
// pass and is skipped on the embedded one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { events, idempotencyKeys } from '@/db/schema';
import { idempotencyCacheKey } from '@/lib/idempotency/run-idempotent';
import { getKv } from '@/lib/kv';
import { sharedStores, startInstance, type Instance } from '@/lib/testing/instance';
import { mission } from '@/lib/testing/fixtures';
import { createTestApp, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { sendDelivery, whEvent } from '@/lib/testing/webhook';

function suite(): void {
  let doomed: Instance;
  let survivor: TestServer;
  let app: TestApp;
  const trigger = `ql_test_slow_${process.pid}`;
  const gate = `ql_test_gate_${process.pid}`;

  const savedQueryTimeout = process.env.DATABASE_QUERY_TIMEOUT_MS;
  beforeAll(async () => {
    // Creating and dropping the trigger locks the shared events table: the statement waits for every
    // transaction on it (other test files' included) to end, which took past the default 10 s query bound
    // on a loaded machine. A bound for a hang (this process and its servers), not for speed.
    process.env.DATABASE_QUERY_TIMEOUT_MS = '60000';
    doomed = await startInstance('doomed');
    survivor = await startTestServer();
    app = await createTestApp(survivor, { missions: [mission('tally', { criteria: { eventName: 'play', count: 1000 } })] });
    const db = await getDb();
    // Holds the delivery's transaction open on one event, so the process can be killed half-way through it:
    // the insert waits (up to 120 s) until the test opens the gate. It was a fixed 4 s sleep, which a poll of
    // pg_stat_activity starved for that long on a loaded machine would miss (the delivery would finish before
    // the kill). Each check of the gate reads a fresh snapshot (READ COMMITTED).
    await db.execute(sql.raw(`create table ${gate} (open boolean not null)`));
    await db.execute(sql.raw(`insert into ${gate} values (false)`));
    await db.execute(
      sql.raw(`create or replace function ${trigger}() returns trigger language plpgsql as $$
        begin
          if new.app_id = '${app.appId}' and new.payload ? 'slow' then
            for i in 1..2400 loop
              exit when (select open from ${gate});
              perform pg_sleep(0.05);
            end loop;
          end if;
          return new;
        end $$`),
    );
    await db.execute(sql.raw(`create trigger ${trigger} before insert on events for each row execute function ${trigger}()`));
  }, 120_000);

  afterAll(async () => {
    const db = await getDb();
    await db.execute(sql.raw(`drop trigger if exists ${trigger} on events`));
    await db.execute(sql.raw(`drop function if exists ${trigger}()`));
    await db.execute(sql.raw(`drop table if exists ${gate}`));
    await doomed?.close();
    await survivor?.close();
    if (savedQueryTimeout === undefined) delete process.env.DATABASE_QUERY_TIMEOUT_MS;
    else process.env.DATABASE_QUERY_TIMEOUT_MS = savedQueryTimeout;
  });

  async function storedCount(userId: string): Promise<number> {
    const db = await getDb();
    const [row] = await db.select({ n: count() }).from(events).where(and(eq(events.appId, app.appId), eq(events.userId, userId)));
    return Number(row.n);
  }

  it('a replay on another instance answers the original: hit from the shared cache, db-hit once the cache is gone', async () => {
    const userId = uniqueId('u');
    const body = { events: [whEvent(userId), whEvent(userId)] };
    const first = await sendDelivery(doomed, app, body);
    expect(first.status).toBe(200);
    const onOther = await sendDelivery(survivor, app, body, { webhookId: first.webhookId });
    expect(onOther.res.headers.get('x-idempotent-replay')).toBe('hit');
    expect(onOther.body).toEqual(first.body);
    // As after a Redis flush or with a fresh in-process store: the database answers.
    await getKv().del(idempotencyCacheKey(app.appId, '', `webhook:${first.webhookId}`));
    const afterLoss = await sendDelivery(survivor, app, body, { webhookId: first.webhookId });
    expect(afterLoss.res.headers.get('x-idempotent-replay')).toBe('db-hit');
    expect(afterLoss.body).toEqual(first.body);
    expect(await storedCount(userId)).toBe(2);
  });

  it('a delivery cut by kill -9 half-way is not applied at all; the retry on another instance applies it once', async () => {
    const [u1, u2, u3] = [uniqueId('u'), uniqueId('u'), uniqueId('u')];
    const body = { events: [whEvent(u1), whEvent(u2), whEvent(u3, 'play', { payload: { slow: true } }), whEvent(u1)] };
    const db = await getDb();

    // The sender chooses the delivery id once and keeps it for every attempt.
    const webhookId = uniqueId('whk');
    const inFlight = sendDelivery(doomed, app, body, { webhookId }).catch((err: unknown) => err);
    // Wait until the doomed process's transaction is inside the third event (the trigger's sleep; the
    // event row is inserted by one statement with the key row and the progress upsert, lib/events/write-event.ts).
    const deadline = Date.now() + 60_000;
    for (;;) {
      const result = await db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event = 'PgSleep' and query like '%insert into "events"%'`);
      if (Number((result as unknown as { rows: Array<{ n: number }> }).rows[0].n) > 0) break;
      if (Date.now() > deadline) throw new Error('the delivery never reached the third event');
      await new Promise((r) => setTimeout(r, 20));
    }
    doomed.child.kill('SIGKILL');
    expect(await inFlight).toBeInstanceOf(Error); // no answer: the process died

    // Nothing of it is visible (its first two events were written inside the open transaction).
    const keyRows = async () =>
      Number(
        (await db.select({ n: count() }).from(idempotencyKeys).where(and(eq(idempotencyKeys.appId, app.appId), eq(idempotencyKeys.key, `webhook:${webhookId}`))))[0].n,
      );
    expect([await storedCount(u1), await storedCount(u2), await storedCount(u3), await keyRows()]).toEqual([0, 0, 0, 0]);

    // The dead process's statement may finish now (PostgreSQL then finds its client gone and rolls back),
    // and the retry below must not wait at the gate.
    await db.execute(sql.raw(`update ${gate} set open = true`));
    // The retry on another instance waits for PostgreSQL to roll the dead transaction back, then applies it once.
    const retry = await sendDelivery(survivor, app, body, { webhookId });
    expect(retry.status).toBe(200);
    expect(retry.res.headers.get('x-idempotent-replay')).toBeNull();
    expect([await storedCount(u1), await storedCount(u2), await storedCount(u3)]).toEqual([2, 1, 1]);
    const results = retry.body.results as Array<{ missionsUpdated: string[] }>;
    expect(results.map((r) => r.missionsUpdated)).toEqual([['tally'], ['tally'], ['tally'], ['tally']]);

    const replay = await sendDelivery(survivor, app, body, { webhookId });
    expect(replay.res.headers.get('x-idempotent-replay')).toBe('hit');
    expect(replay.body).toEqual(retry.body);
    expect(await storedCount(u1)).toBe(2);
  });
}

if (sharedStores) {
  describe('webhook deliveries across server processes (PostgreSQL + Redis)', suite);
} else {
  describe.skip('webhook deliveries across server processes — skipped: set DATABASE_URL and REDIS_URL (the embedded database is one process’s)', suite);
}
