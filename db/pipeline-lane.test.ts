// The pipelined lane (db/pipeline-lane.ts) on the machine's PostgreSQL, with
// node-postgres clients in pipeline mode as db/client.ts makes them:
// statements issued together leave in one socket write and each gets its own
// answer; a failing one fails alone; the in-flight bound sends the caller to
// the pool; a connection ended by the server or past the query bound fails
// what was on it as unavailable (503) and is replaced on the next use.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isUnavailableError } from '@/lib/errors';
import { pipelineLane, type PipelineLane } from './pipeline-lane';
import type { Prepared } from './prepared';

const url = process.env.DATABASE_URL;
const run = `lane_${process.pid}_${Date.now().toString(36)}`;

const ECHO: Prepared = { name: `${run}_echo`, text: 'select $1::int as n, pg_backend_pid() as pid' };
const DIVIDE: Prepared = { name: `${run}_divide`, text: 'select 10 / $1::int as q' };
const SLEEP: Prepared = { name: `${run}_sleep`, text: 'select pg_sleep($1::float8) as slept' };

function lane(options: { size: number; maxInFlight: number; queryMs?: number }): { lane: PipelineLane; clients: pg.Client[] } {
  const clients: pg.Client[] = [];
  const made = pipelineLane({
    size: options.size,
    maxInFlight: options.maxInFlight,
    makeClient: () => {
      const client = new pg.Client({ connectionString: url, application_name: run, query_timeout: options.queryMs, pipeline: true } as pg.ClientConfig);
      client.on('error', () => undefined);
      clients.push(client);
      return client as never;
    },
  });
  return { lane: made, clients };
}

/** Socket writes of a connected client from now on (net.Socket's _write and _writev). */
function countWrites(client: pg.Client): { count: number } {
  const stream = (client as unknown as { connection: { stream: Record<string, (...a: unknown[]) => unknown> } }).connection.stream;
  const counter = { count: 0 };
  for (const method of ['_write', '_writev']) {
    const original = stream[method]!;
    stream[method] = function (this: unknown, ...args: unknown[]) {
      counter.count++;
      return original.apply(this, args);
    };
  }
  return counter;
}

function suite() {
  const open: PipelineLane[] = [];
  const make = (options: Parameters<typeof lane>[0]) => {
    const made = lane(options);
    open.push(made.lane);
    return made;
  };
  let admin: pg.Client;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((l) => l.end()));
  });
  afterAll(async () => {
    // A backend left sleeping by the query-bound test (the server notices the closed socket only when it answers).
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [run]);
    await admin.end();
  });

  it('statements issued together leave in one socket write, and each gets its own rows', async () => {
    const { lane: l, clients } = make({ size: 1, maxInFlight: 64 });
    await l.tryRun(ECHO, [0]); // connects
    const writes = countWrites(clients[0]!);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => l.tryRun(ECHO, [i + 1])!));
    expect(answers.map((rows) => rows[0]!.n)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(answers.map((rows) => rows[0]!.pid)).size).toBe(1);
    expect(writes.count).toBe(1);
    expect(l.stats).toMatchObject({ run: 21, overflow: 0, reconnects: 0 });
  });

  it('a statement that fails fails alone: the ones sent with it, before and after, are answered', async () => {
    const { lane: l } = make({ size: 1, maxInFlight: 64 });
    const results = await Promise.allSettled([l.tryRun(DIVIDE, [5]), l.tryRun(DIVIDE, [0]), l.tryRun(DIVIDE, [2])]);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: [{ q: 2 }] });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
    expect(results[2]).toMatchObject({ status: 'fulfilled', value: [{ q: 5 }] });
  });

  it('statements spread over the connections, and past maxInFlight on every one the caller is sent to the pool (null)', async () => {
    const { lane: l } = make({ size: 2, maxInFlight: 2 });
    const taken = Array.from({ length: 4 }, () => l.tryRun(SLEEP, [0.2]));
    expect(taken.every((p) => p !== null)).toBe(true);
    expect(l.tryRun(ECHO, [1])).toBeNull();
    await Promise.all(taken);
    const pids = await Promise.all([l.tryRun(ECHO, [1]), l.tryRun(ECHO, [2])]);
    expect(new Set(pids.map((rows) => rows![0]!.pid)).size).toBe(2);
    expect(l.stats).toMatchObject({ run: 6, overflow: 1 });
  });

  it('a connection ended by the server fails what was on it as unavailable, and the next statement gets a new one', async () => {
    const { lane: l } = make({ size: 1, maxInFlight: 64 });
    const [first] = (await l.tryRun(ECHO, [1]))!;
    const onIt = [l.tryRun(SLEEP, [5])!, l.tryRun(ECHO, [2])!].map((p) => p.then(() => 'answered', (err: unknown) => err));
    await new Promise((r) => setTimeout(r, 200));
    await admin.query('select pg_terminate_backend($1)', [first!.pid]);
    const outcomes = await Promise.all(onIt);
    for (const outcome of outcomes) expect(isUnavailableError(outcome)).toBe(true);
    const [after] = (await l.tryRun(ECHO, [3]))!;
    expect(after).toMatchObject({ n: 3 });
    expect(after!.pid).not.toBe(first!.pid);
    expect(l.stats.reconnects).toBe(1);
  });

  it('a reply past the query bound fails the statements on that connection as unavailable; the lane then works on a new one', async () => {
    const { lane: l } = make({ size: 1, maxInFlight: 64, queryMs: 300 });
    const [first] = (await l.tryRun(ECHO, [1]))!;
    // Far past the bound (and the test's own timeout): only the bound can answer them.
    const onIt = [l.tryRun(SLEEP, [60])!, l.tryRun(ECHO, [2])!].map((p) => p.then(() => 'answered', (err: unknown) => err));
    const outcomes = await Promise.all(onIt);
    for (const outcome of outcomes) expect(isUnavailableError(outcome)).toBe(true);
    const [after] = (await l.tryRun(ECHO, [3]))!;
    expect(after).toMatchObject({ n: 3 });
    expect(after!.pid).not.toBe(first!.pid);
  });

  it('after end(), the lane takes nothing (the caller uses the pool)', async () => {
    const { lane: l } = make({ size: 1, maxInFlight: 64 });
    await l.tryRun(ECHO, [1]);
    await l.end();
    expect(l.tryRun(ECHO, [2])).toBeNull();
  });
}

if (url) describe('pipelined lane on PostgreSQL (node-postgres, pipeline mode)', suite);
else describe.skip('pipelined lane — skipped: set DATABASE_URL (the embedded database has no pipelined connections)', suite);
