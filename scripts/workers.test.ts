// `npm start` with QUESTLINE_WORKERS=2 (scripts/server.ts): the primary boots,
// forks two worker processes (running the server bundle, not start.mjs) that
// share the port and both take requests; a worker that dies is replaced,
// after a doubling delay while replacements die young, and the replacements
// serve without migrating; SIGTERM sent to the whole process group (Ctrl-C,
// systemd) lets the requests in flight on both workers finish and exits 0;
// a worker exiting 1 while stopping makes the primary exit 1, after the
// other. Which worker holds a connection is read from /proc (the tests open
// connections until each worker holds one), and every wait has its own bound
// and names what it waited for. Needs PostgreSQL and Redis (the workers share
// them), so the embedded pass skips it.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedStores } from '@/lib/testing/instance';
import { describeWithBuild, startProduction, type Instance } from '@/lib/testing/production';
import { rawPost, type RawPost } from '@/lib/testing/raw-post';
import { openSse } from '@/lib/testing/sse-client';
import { MIGRATION_LOCK } from '@/db/client';
import { createTestApp, issueToken, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';

const ADMIN_KEY = 'workers-test-admin-key-0123456789';

/** In a process group of its own (the tests signal the whole group, as Ctrl-C or systemd do); a long grace period, so
 * that only the requests' answers, never the cut, end the requests the tests hold in flight. */
function start(): Promise<Instance> {
  return startProduction({ detached: true, env: { ADMIN_API_KEY: ADMIN_KEY, QUESTLINE_WORKERS: '2', QUESTLINE_QUIET: undefined, SHUTDOWN_GRACE_MS: '120000' } });
}

/** SIGKILL to the instance's whole process group, and wait for the primary. */
async function kill(instance: Instance): Promise<void> {
  try {
    process.kill(-instance.child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
  await within(instance.exited, 30_000, 'the primary to die on SIGKILL');
}

/** Every live descendant of `pid` (from /proc), with its parent. */
function descendants(pid: number): Array<{ pid: number; ppid: number }> {
  const all: Array<{ pid: number; ppid: number }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command may hold spaces and parentheses: the fields after the last ')' are fixed.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') all.push({ pid: Number(name), ppid: Number(fields[1]) });
    } catch {
      // gone meanwhile
    }
  }
  const found: Array<{ pid: number; ppid: number }> = [];
  const parents = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        found.push(p);
        grew = true;
      }
    }
  }
  return found;
}

/** The worker processes: the descendants that have no child of their own among the server's processes and whose parent does (the primary). */
function workers(root: number): number[] {
  const tree = descendants(root);
  const parentsOf = new Set(tree.map((p) => p.ppid));
  return tree.filter((p) => !parentsOf.has(p.pid)).map((p) => p.pid);
}

/** The server side of the connection from `clientPort` to `port` (from /proc): which of `pids` holds it, and the bytes it has not read yet. */
function serverSide(pids: number[], port: number, clientPort: number): { pid: number; unread: number } | undefined {
  let found: { inode: string; unread: number } | undefined;
  for (const file of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/self/net/${file}`, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== '01') continue;
      const local = parseInt(f[1]!.split(':').at(-1)!, 16);
      const remote = parseInt(f[2]!.split(':').at(-1)!, 16);
      if (local === port && remote === clientPort) found = { inode: f[9]!, unread: parseInt(f[4]!.split(':')[1]!, 16) };
    }
  }
  if (!found) return undefined;
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${found.inode}]`) return { pid, unread: found.unread };
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

async function until(check: () => boolean, what: string, timeoutMs: number, output?: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${output ? `; server output:\n${output()}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `promise`, or an error naming `what` after `timeoutMs`. */
async function within<T>(promise: Promise<T>, timeoutMs: number, what: string, output?: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${output ? `; server output:\n${output()}` : ''}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * An open connection held by each of `pids`: connections are opened one at a time, each waiting until a worker
 * has accepted it (the primary deals them out to the workers that serve), and closed when its worker already
 * holds one, until every worker holds one or `timeoutMs` passed (a worker that does not serve yet).
 */
async function connectionToEach(server: Instance, pids: number[], timeoutMs: number): Promise<Map<number, Socket>> {
  const port = Number(new URL(server.url).port);
  const held = new Map<number, Socket>();
  const deadline = Date.now() + timeoutMs;
  const counts = new Map<number, number>();
  try {
    while (held.size < pids.length) {
      if (Date.now() > deadline) {
        throw new Error(
          `timed out after ${timeoutMs} ms waiting for a connection held by each worker: accepted per worker ${JSON.stringify(Object.fromEntries(counts))} (workers ${pids.join(', ')}); server output:\n${server.output()}`,
        );
      }
      const socket = connect({ host: '127.0.0.1', port });
      socket.on('error', () => undefined);
      await within(new Promise((resolve) => socket.once('connect', resolve)), 30_000, 'a TCP connection to the primary');
      let owner: number | undefined;
      await until(() => (owner = serverSide(pids, port, socket.localPort!)?.pid) !== undefined, 'a worker to accept a connection', 30_000, server.output);
      counts.set(owner!, (counts.get(owner!) ?? 0) + 1);
      if (held.has(owner!)) socket.destroy();
      else held.set(owner!, socket);
    }
  } catch (err) {
    for (const socket of held.values()) socket.destroy();
    throw err;
  }
  return held;
}

const event = (userId: string) => JSON.stringify({ userId, name: 'match_played', payload: {}, timestamp: Date.now() });

/** Half-sent POSTs of an event, one on each held connection, that the worker holding it has read (in flight there). */
async function inFlightOn(server: Instance, sockets: Map<number, Socket>, token: string, userId: string): Promise<Map<number, RawPost>> {
  const port = Number(new URL(server.url).port);
  const posts = new Map<number, RawPost>();
  for (const [pid, socket] of sockets) {
    posts.set(pid, rawPost(server.url, '/v1/events', event(userId), { headers: { Authorization: `Bearer ${token}` }, split: true, socket }));
  }
  await within(Promise.all([...posts.values()].map((p) => p.flushed)), 30_000, 'the first halves to be sent');
  for (const [pid, socket] of sockets) {
    await until(() => serverSide([pid], port, socket.localPort!)?.unread === 0, `worker ${pid} to read its request's first half`, 30_000, server.output);
  }
  return posts;
}

(sharedStores ? describeWithBuild : describe.skip)('npm start with QUESTLINE_WORKERS=2', () => {
  let server: Instance;
  let target: TestServer;
  let app: TestApp;
  const extra: Instance[] = [];

  beforeAll(async () => {
    server = await start();
    target = { url: server.url, adminKey: ADMIN_KEY, close: async () => undefined };
    app = await createTestApp(target, {
      missions: [{ id: 'play', title: 'Play', criteria: { eventName: 'match_played', count: 1000 }, reward: { kind: 'currency', currency: 'gems', amount: 1 } }],
    });
  }, 180_000);
  afterAll(async () => {
    for (const instance of [server, ...extra]) if (instance) await kill(instance);
  }, 60_000);

  it('boots once, runs two workers, and a user’s stream gets every change in order whichever worker took the event', async () => {
    await until(() => /\(2 worker processes\)/.test(server.output()), 'the listening line', 60_000, server.output);
    expect(server.output().match(/^Questline: database /gm)).toHaveLength(1);
    expect(workers(server.child.pid!)).toHaveLength(2);
    // The workers run the server bundle, not scripts/start.mjs (no build check, no second boot).
    for (const pid of workers(server.child.pid!)) {
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)).toEqual([process.execPath, expect.stringMatching(/\.next\/questline-server\.mjs$/)]);
    }

    const userId = uniqueId('u');
    const token = await issueToken(target, app, userId);
    const stream = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${token}` });
    try {
      await stream.waitFor((s) => s.raw.startsWith(': connected'), 'connected');
      // One connection each: the primary deals them out to both workers, one of which holds the stream.
      for (let i = 0; i < 12; i++) {
        const post = rawPost(server.url, '/v1/events', event(userId), { headers: { Authorization: `Bearer ${token}` } });
        expect((await within(post.answer, 30_000, `event ${i + 1}'s answer`)).status).toBe(200);
      }
      await stream.waitForMessages(12, 60_000);
      expect(stream.updates.map((u) => u.data.currentCount)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    } finally {
      await stream.close();
    }
  });

  it('a worker that dies is replaced, after a delay that doubles while replacements die young; replacements serve without migrating', async () => {
    // Replacements must serve while another instance holds the migration lock: a worker that migrated would wait on it.
    const lock = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await lock.connect();
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const original = workers(server.child.pid!);
      expect(original).toHaveLength(2);
      // Kill a worker, then its replacement and the next as soon as they appear (young).
      let victim = original[0]!;
      const gaps: number[] = [];
      for (let round = 0; round < 3; round++) {
        const before = workers(server.child.pid!).filter((pid) => pid !== victim);
        process.kill(victim, 'SIGKILL');
        const killedAt = Date.now();
        let replacement: number | undefined;
        await until(
          () => (replacement = workers(server.child.pid!).find((pid) => pid !== victim && !before.includes(pid))) !== undefined,
          `a replacement for worker ${victim}`,
          90_000,
          server.output,
        );
        gaps.push(Date.now() - killedAt);
        await until(() => new RegExp(`worker ${victim} exited \\(SIGKILL\\); starting another`).test(server.output()), `the line for worker ${victim}`, 10_000, server.output);
        victim = replacement!;
      }
      // The delays announced: 0 or 1 s for the first (its worker may have lived over a minute), then doubling.
      const delays = [...server.output().matchAll(/exited \(SIGKILL\); starting another(?: in (\d+) s)?/g)].map((m) => Number(m[1] ?? 0));
      expect(delays).toHaveLength(3);
      expect([0, 1]).toContain(delays[0]);
      expect(delays[1]).toBe(Math.max(1, delays[0]! * 2));
      expect(delays[2]).toBe(delays[1]! * 2);
      // And waited: a replacement appears no sooner than its delay.
      for (let i = 0; i < 3; i++) expect(gaps[i]).toBeGreaterThanOrEqual(delays[i]! * 1000 - 50);

      // The last replacement serves (the migration lock still held), and the service keeps answering.
      const sockets = await connectionToEach(server, workers(server.child.pid!), 120_000);
      for (const socket of sockets.values()) socket.destroy();
    } finally {
      await lock.end();
    }
    const userId = uniqueId('u');
    const token = await issueToken(target, app, userId);
    for (let i = 0; i < 6; i++) {
      const post = rawPost(server.url, '/v1/events', event(userId), { headers: { Authorization: `Bearer ${token}` } });
      expect((await within(post.answer, 30_000, `event ${i + 1}'s answer`)).status).toBe(200);
    }
  }, 240_000);

  it('SIGTERM to the process group: both workers finish the events in flight, the stream gets its last comment, the primary exits 0', async () => {
    const pids = workers(server.child.pid!);
    expect(pids).toHaveLength(2);
    const userId = uniqueId('u');
    const token = await issueToken(target, app, userId);
    const stream = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${token}` });
    await stream.waitFor((s) => s.raw.startsWith(': connected'), 'connected');
    // An event in flight on each worker, on a connection it is known to hold.
    const posts = await inFlightOn(server, await connectionToEach(server, pids, 120_000), token, userId);

    process.kill(-server.child.pid!, 'SIGTERM');
    await stream.waitFor((s) => s.ended, 'the stream to end', 60_000);
    expect(stream.raw.endsWith(': server shutting down; reconnect (with Last-Event-ID) to resume\n\n')).toBe(true);
    // Still running: the requests in flight hold both workers (a second signal would have cut them).
    expect(server.child.exitCode).toBeNull();
    for (const pid of pids) expect(() => process.kill(pid, 0)).not.toThrow();
    for (const post of posts.values()) post.finish();
    for (const [pid, post] of posts) expect((await within(post.answer, 60_000, `the answer of worker ${pid}'s request in flight`, server.output)).status).toBe(200);
    expect(await within(server.exited, 60_000, 'the primary to exit', server.output)).toBe(0);
    expect(server.output()).toMatch(/SIGTERM, stopping 2 workers/);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  }, 240_000);

  it('SIGTERM to the primary alone (docker stop) while a replacement is still loading: the stop reaches it once it listens, the primary exits 0', async () => {
    const other = await start();
    extra.push(other);
    const pids = workers(other.child.pid!);
    expect(pids).toHaveLength(2);
    process.kill(pids[0]!, 'SIGKILL');
    // Forked after the first respawn delay (1 s) and caught as soon as its process exists: still loading its
    // modules, so a stop sent now finds no listener there.
    let replacement: number | undefined;
    await until(() => (replacement = workers(other.child.pid!).find((p) => !pids.includes(p))) !== undefined, 'the replacement worker to be forked', 60_000, other.output);
    process.kill(other.child.pid!, 'SIGTERM');
    expect(await within(other.exited, 90_000, 'the primary to exit', other.output)).toBe(0);
    for (const pid of [pids[1]!, replacement!]) expect(() => process.kill(pid, 0)).toThrow();
  }, 240_000);

  it('a worker that exits 1 while stopping: the primary waits for the other, then exits 1', async () => {
    const other = await start();
    extra.push(other);
    const pids = workers(other.child.pid!);
    expect(pids).toHaveLength(2);
    const otherTarget = { url: other.url, adminKey: ADMIN_KEY, close: async () => undefined };
    const userId = uniqueId('u');
    const token = await issueToken(otherTarget, app, userId);
    const posts = await inFlightOn(other, await connectionToEach(other, pids, 120_000), token, userId);
    const [first, second] = pids as [number, number];

    process.kill(-other.child.pid!, 'SIGINT');
    await until(() => other.output().match(/SIGINT, shutting down/g)?.length === 2, 'both workers to start draining', 60_000, other.output);
    // A second, different signal: that worker exits 1 at once, cutting its request.
    process.kill(first, 'SIGTERM');
    await expect(within(posts.get(first)!.answer, 30_000, `worker ${first}'s request to be cut`, other.output)).rejects.toThrow(/closed|socket hang up|ECONNRESET/);
    await until(() => !descendants(other.child.pid!).some((p) => p.pid === first), `worker ${first} to exit`, 30_000, other.output);
    // The other still drains: the primary waits for it.
    expect(other.child.exitCode).toBeNull();
    posts.get(second)!.finish();
    expect((await within(posts.get(second)!.answer, 60_000, `worker ${second}'s answer`, other.output)).status).toBe(200);
    expect(await within(other.exited, 60_000, 'the primary to exit', other.output)).toBe(1);
  }, 240_000);
});
