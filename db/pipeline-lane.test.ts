// The pipelined lane (db/pipeline-lane.ts) on the machine's PostgreSQL, with
// node-postgres clients in pipeline mode as db/client.ts makes them:
// statements issued together leave in one socket write and each gets its own
// answer; a failing one fails alone; the in-flight bound sends the caller to
// the pool; a connection ended by the server or past the query bound fails
// what was on it as unavailable (503) and is replaced on the next use; a
// statement past the server's statement_timeout fails alone. Without
// PostgreSQL too: a connection refused, or a client that refuses the
// statement unsent, sends it to the pool; a connection attempt past its bound
// (a server that never answers) fails it as unavailable; either way the
// connection rests before it is tried again.
import { createServer, type Server, type Socket } from 'node:net';
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

function lane(options: { size: number; maxInFlight: number; queryMs?: number; statementMs?: number }): { lane: PipelineLane; clients: pg.Client[] } {
  const clients: pg.Client[] = [];
  const made = pipelineLane({
    size: options.size,
    maxInFlight: options.maxInFlight,
    makeClient: () => {
      const client = new pg.Client({
        connectionString: url,
        application_name: run,
        query_timeout: options.queryMs,
        statement_timeout: options.statementMs,
        pipeline: true,
      } as pg.ClientConfig);
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
    expect(answers.map((rows) => rows![0]!.n)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(answers.map((rows) => rows![0]!.pid)).size).toBe(1);
    expect(writes.count).toBe(1);
    expect(l.stats).toMatchObject({ run: 21, overflow: 0, reconnects: 0 });
    expect(l.connections()).toBe(1);
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

  it('a statement past the server\'s statement_timeout fails alone as unavailable: the one behind it on the connection is answered', async () => {
    const { lane: l } = make({ size: 1, maxInFlight: 64, queryMs: 20_000, statementMs: 300 });
    const [first] = (await l.tryRun(ECHO, [1]))!;
    const [held, behind] = await Promise.allSettled([l.tryRun(SLEEP, [30])!, l.tryRun(ECHO, [2])!]);
    expect(held).toMatchObject({ status: 'rejected', reason: { code: '57014' } });
    expect(isUnavailableError((held as PromiseRejectedResult).reason)).toBe(true);
    expect(behind).toMatchObject({ status: 'fulfilled', value: [{ n: 2, pid: first!.pid }] });
    expect(l.stats.reconnects).toBe(0);
  });

  it('end() lets the statements in flight finish; after it, the lane takes nothing (the caller uses the pool)', async () => {
    const { lane: l } = make({ size: 1, maxInFlight: 64 });
    await l.tryRun(ECHO, [1]);
    const inFlight = [l.tryRun(SLEEP, [0.2])!, l.tryRun(ECHO, [2])!];
    // Written (the cork is undone at the next setImmediate) before end().
    await new Promise((r) => setTimeout(r, 50));
    // Issued in the same turn as end(): not yet sent, so sent to the pool, not failed.
    const unsent = l.tryRun(ECHO, [3])!;
    await l.end();
    expect(await Promise.all(inFlight)).toMatchObject([[{}], [{ n: 2 }]]);
    expect(await unsent).toBeNull();
    expect(l.tryRun(ECHO, [4])).toBeNull();
  });
}

describe('pipelined lane: a connection that cannot be used sends the statement to the pool', () => {
  const servers: Server[] = [];
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await Promise.all(servers.splice(0).map((server) => new Promise((r) => server.close(r))));
  });
  /** A port that accepts connections (and never answers when `silent`), or one nothing listens on. */
  const port = async (kind: 'silent' | 'refused'): Promise<number> => {
    const server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port: p } = server.address() as { port: number };
    if (kind === 'silent') servers.push(server);
    else await new Promise((r) => server.close(r));
    return p;
  };
  const laneTo = (p: number, restMs: number) => {
    const made = { count: 0 };
    const l = pipelineLane({
      size: 1,
      maxInFlight: 8,
      restMs,
      makeClient: () => {
        made.count++;
        const client = new pg.Client({ host: '127.0.0.1', port: p, user: 'postgres', connectionTimeoutMillis: 200, pipeline: true } as pg.ClientConfig);
        client.on('error', () => undefined);
        return client as never;
      },
    });
    return { l, made };
  };

  it('refused: the statements answer null (run on the pool), and the connection rests before another attempt', async () => {
    const { l, made } = laneTo(await port('refused'), 300);
    expect(await Promise.all([l.tryRun(ECHO, [1]), l.tryRun(ECHO, [2])])).toEqual([null, null]);
    expect(made.count).toBe(1);
    // Resting: not tried again at once.
    expect(l.tryRun(ECHO, [3])).toBeNull();
    expect(made.count).toBe(1);
    await new Promise((r) => setTimeout(r, 350));
    expect(await l.tryRun(ECHO, [4])).toBeNull();
    expect(made.count).toBe(2);
    // Attempts that failed are not reconnects: no connection was ever made.
    expect(l.stats).toEqual({ run: 0, overflow: 4, reconnects: 0 });
    expect(l.connections()).toBe(0);
    await l.end();
  });

  it('timed out (a server that accepts and never answers): the statements fail as unavailable (503) rather than wait as long again on the pool, and the connection rests', async () => {
    const { l, made } = laneTo(await port('silent'), 300);
    const outcomes = await Promise.allSettled([l.tryRun(ECHO, [1])!, l.tryRun(ECHO, [2])!]);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect(isUnavailableError((outcome as PromiseRejectedResult).reason)).toBe(true);
    }
    expect(made.count).toBe(1);
    expect(l.tryRun(ECHO, [3])).toBeNull();
    expect(made.count).toBe(1);
    expect(l.stats).toMatchObject({ run: 0, reconnects: 0 });
    expect(l.connections()).toBe(0);
    await l.end();
  });

  it('a client that refuses the statement unsent (errored, not queryable): null, its socket is closed, and the next statement gets a new one', async () => {
    const destroyed = { count: 0 };
    const made: unknown[] = [];
    const makeClient = () => {
      const client = {
        connect: async () => undefined,
        query: async () => {
          throw new Error('Client has encountered a connection error and is not queryable');
        },
        on: () => undefined,
        end: async () => undefined,
        connection: { stream: { destroyed: false, destroy: () => destroyed.count++ } },
      };
      made.push(client);
      return client;
    };
    const l = pipelineLane({ size: 1, maxInFlight: 8, makeClient });
    expect(await l.tryRun(ECHO, [1])).toBeNull();
    expect(destroyed.count).toBe(1);
    expect(await l.tryRun(ECHO, [2])).toBeNull();
    expect(made).toHaveLength(2);
    expect(l.stats).toMatchObject({ run: 0, overflow: 2 });
  });
});

if (url) describe('pipelined lane on PostgreSQL (node-postgres, pipeline mode)', suite);
else describe.skip('pipelined lane — skipped: set DATABASE_URL (the embedded database has no pipelined connections)', suite);
