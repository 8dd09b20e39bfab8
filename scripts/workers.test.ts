// `npm start` with QUESTLINE_WORKERS=2 (scripts/server.ts): the primary boots,
// forks two worker processes (running the server bundle, not start.mjs) that
// share the port and both take requests, replaces a worker that dies, and on
// SIGTERM sent to the whole process group (Ctrl-C, systemd) lets requests in
// flight finish and exits 0. Needs PostgreSQL and Redis (the workers share
// them), so the embedded pass skips it.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedStores } from '@/lib/testing/instance';
import { describeWithBuild, startProduction, type Instance } from '@/lib/testing/production';
import { openSse } from '@/lib/testing/sse-client';
import { createTestApp, issueToken, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';

const ADMIN_KEY = 'workers-test-admin-key-0123456789';

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

/** A POST on a connection of its own, so that the primary hands it to either worker. */
function postOnNewConnection(url: string, route: string, token: string, body: unknown): Promise<number> {
  const target = new URL(route, url);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent: false,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** The inodes of the established TCP connections accepted on `port` whose bytes `pid` has read (receive queue empty). */
function acceptedSockets(pid: number, port: number): Set<string> {
  const inodes = new Set<string>();
  for (const file of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${file}`, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== '01') continue;
      const localPort = parseInt(f[1]!.split(':')[1]!, 16);
      const rxQueue = parseInt(f[4]!.split(':')[1]!, 16);
      if (localPort === port && rxQueue === 0) inodes.add(f[9]!);
    }
  }
  const owned = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m && inodes.has(m[1]!)) owned.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  return owned;
}

/** A POST whose headers and half its body are sent; the rest goes on finish(). */
function halfSentPost(url: string, route: string, token: string, body: string): { answer: Promise<number>; finish(): void } {
  const target = new URL(route, url);
  let req!: ClientRequest;
  const answer = new Promise<number>((resolve, reject) => {
    req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent: false,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  req.write(body.slice(0, half));
  return { answer, finish: () => req.end(body.slice(half)) };
}

async function until(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

(sharedStores ? describeWithBuild : describe.skip)('npm start with QUESTLINE_WORKERS=2', () => {
  let server: Instance;
  let target: TestServer;
  let app: TestApp;

  beforeAll(async () => {
    // A process group of its own: the last test signals the whole group, as Ctrl-C or systemd do.
    server = await startProduction({ detached: true, env: { ADMIN_API_KEY: ADMIN_KEY, QUESTLINE_WORKERS: '2', QUESTLINE_QUIET: undefined } });
    target = { url: server.url, adminKey: ADMIN_KEY, close: async () => undefined };
    app = await createTestApp(target, {
      missions: [{ id: 'play', title: 'Play', criteria: { eventName: 'match_played', count: 1000 }, reward: { kind: 'currency', currency: 'gems', amount: 1 } }],
    });
  }, 180_000);
  afterAll(async () => {
    if (!server) return;
    const left = descendants(server.child.pid!).map((p) => p.pid);
    await server.stop('SIGKILL');
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });

  it('boots once, runs two workers, and a user’s stream gets every change in order whichever worker took the event', async () => {
    await until(() => /\(2 worker processes\)/.test(server.output()), 'the listening line');
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
        expect(await postOnNewConnection(server.url, '/v1/events', token, { userId, name: 'match_played', payload: {}, timestamp: Date.now() })).toBe(200);
      }
      await stream.waitForMessages(12, 60_000);
      expect(stream.updates.map((u) => u.data.currentCount)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    } finally {
      await stream.close();
    }
  });

  it('a worker killed with SIGKILL is replaced and the service keeps answering', async () => {
    const before = workers(server.child.pid!);
    expect(before).toHaveLength(2);
    process.kill(before[0]!, 'SIGKILL');
    await until(() => {
      const now = workers(server.child.pid!);
      return now.length === 2 && !now.includes(before[0]!);
    }, 'a replacement worker');
    expect(server.output()).toMatch(new RegExp(`worker ${before[0]} exited \\(SIGKILL\\); starting another`));
    const userId = uniqueId('u');
    const token = await issueToken(target, app, userId);
    for (let i = 0; i < 6; i++) {
      expect(await postOnNewConnection(server.url, '/v1/events', token, { userId, name: 'match_played', payload: {}, timestamp: Date.now() })).toBe(200);
    }
  }, 120_000);

  it('SIGTERM to the process group: both workers finish the events in flight, the stream gets its last comment, the primary exits 0', async () => {
    const pids = workers(server.child.pid!);
    expect(pids).toHaveLength(2);
    const port = Number(new URL(server.url).port);
    const userId = uniqueId('u');
    const token = await issueToken(target, app, userId);
    const stream = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${token}` });
    await stream.waitFor((s) => s.raw.startsWith(': connected'), 'connected');
    // Events in flight on connections of their own, one more each time the last was read, until both workers hold
    // at least one (a replacement worker takes connections once it serves).
    const held = new Set(pids.flatMap((pid) => [...acceptedSockets(pid, port)]));
    const post = () => halfSentPost(server.url, '/v1/events', token, JSON.stringify({ userId, name: 'match_played', payload: {}, timestamp: Date.now() }));
    const inFlight = [post()];
    await until(() => {
      const posts = pids.map((pid) => [...acceptedSockets(pid, port)].filter((inode) => !held.has(inode)).length);
      if (posts[0]! + posts[1]! < inFlight.length) return false;
      if (posts.every((n) => n >= 1)) return true;
      if (inFlight.length < 40) inFlight.push(post());
      return false;
    }, 'both workers to hold events in flight', 90_000);

    process.kill(-server.child.pid!, 'SIGTERM');
    await stream.waitFor((s) => s.ended, 'the stream to end', 60_000);
    expect(stream.raw.endsWith(': server shutting down; reconnect (with Last-Event-ID) to resume\n\n')).toBe(true);
    // Still running: the requests in flight hold it.
    expect(server.child.exitCode).toBeNull();
    for (const post of inFlight) post.finish();
    expect(new Set(await Promise.all(inFlight.map((p) => p.answer)))).toEqual(new Set([200]));
    expect(await server.exited).toBe(0);
    expect(server.output()).toMatch(/SIGTERM, stopping 2 workers/);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  }, 240_000);
});
