// A player back after a day: the stream's order state (lib/updates/log.ts)
// has expired, so the log cannot tell whether the player's previous change is
// still on its way. The event's read knows when that change committed
// (user_sequences.changed_at): long ago, so the new change's message goes out
// at once (LogOrder.settled) instead of waiting GAP_WAIT_MS and repairing the
// stream from the database. Recent or unknown, it still waits. Real database
// and update log (embedded or DATABASE_URL/REDIS_URL); the players are seeded
// with SQL as the bench's returning players are (no order state anywhere).
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { buildCatalog } from '@/lib/catalog/catalog';
import { missionSchema } from '@/lib/contract/mission';
import { metrics } from '@/lib/metrics';
import { recordEvent } from '@/lib/services/events/record-event';
import type { ServiceContext } from '@/lib/services/context';
import { mission } from '@/lib/testing/fixtures';
import { testServiceContext, type TestServiceContext } from '@/lib/testing/service-context';
import { uniqueId } from '@/lib/testing/test-env';
import { getUpdateLog, PREDECESSOR_SETTLED_MS, userLogKey } from '@/lib/updates/log';

const DAY = 86_400_000;

let base: TestServiceContext;
let db: Db;
let ctx: ServiceContext;
let appId: string;
let now = Date.now();

beforeAll(async () => {
  base = await testServiceContext('returning-player');
  db = base.db;
  appId = uniqueId('returning');
  const catalog = buildCatalog(appId, [missionSchema.parse(mission('play-100', { criteria: { eventName: 'play', count: 100 } }))], [], now);
  ctx = { ...base.ctx, appId, now: () => now, deps: { ...base.ctx.deps, catalog: async () => catalog } };
});

/** A player whose 20th change committed at `changedAt` (null: before the column existed), with 5 plays counted. */
async function seedPlayer(changedAt: number | null): Promise<string> {
  const userId = uniqueId('p');
  await db.execute(sql`insert into app_users (app_id, user_id, first_seen_at, last_seen_at, events) values (${appId}, ${userId}, ${now - 2 * DAY}, ${now - DAY}, 20)`);
  await db.execute(sql`insert into user_sequences (app_id, user_id, seq, changed_at) values (${appId}, ${userId}, 20, ${changedAt})`);
  await db.execute(sql`insert into progress (app_id, user_id, mission_id, status, current_count, target_count, window_start, cycle, updated_at)
    values (${appId}, ${userId}, 'play-100', 'active', 5, 100, 0, 1, ${now - DAY})`);
  return userId;
}

const waits = async () => (await metrics().streamOrderWaits.get()).values.reduce((sum, v) => sum + v.value, 0);

async function play(userId: string): Promise<void> {
  const outcome = await recordEvent({ ctx, input: { source: 'api', idempotencyKey: null, event: { userId, name: 'play', payload: {}, timestamp: now } } });
  expect(outcome.status).toBe(200);
  expect(outcome.body).toMatchObject({ missionsUpdated: ['play-100'] });
}

/** What the user's log holds now (the stream's replay), as update types. */
async function logged(userId: string): Promise<string[]> {
  const entries = await getUpdateLog().readAfter(userLogKey(appId, userId), null);
  return entries.map((e) => (JSON.parse(e.update) as { type: string }).type);
}

describe('a returning player’s first change', () => {
  it('goes out at once when the change before it committed long ago', async () => {
    now = Date.now();
    const userId = await seedPlayer(now - DAY);
    const before = await waits();
    await play(userId);
    expect(await waits()).toBe(before);
    expect(await logged(userId)).toEqual(['mission.progress']);
    // Its next change follows in order as always.
    await play(userId);
    expect(await waits()).toBe(before);
    expect(await logged(userId)).toEqual(['mission.progress', 'mission.progress']);
    const result = await db.execute(sql`select seq::int as seq, changed_at::bigint as at from user_sequences where app_id = ${appId} and user_id = ${userId}`);
    const [row] = (result as unknown as { rows: Array<{ seq: number; at: string }> }).rows;
    expect(row.seq).toBe(22);
    expect(Number(row.at)).toBe(now);
  });

  it('waits for its predecessor when that committed moments ago, or when nobody knows when', async () => {
    now = Date.now();
    for (const changedAt of [now - PREDECESSOR_SETTLED_MS + 1_000, null]) {
      const userId = await seedPlayer(changedAt);
      const before = await waits();
      await play(userId);
      expect(await waits(), `changed_at ${changedAt}`).toBe(before + 1);
    }
  });
});
