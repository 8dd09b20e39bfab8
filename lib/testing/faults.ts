// Test support for fault injection with real processes: a redis-server of the
// test's own on a spare port, and a TCP proxy in front of PostgreSQL or Redis
// that can pass, delay, refuse, black-hole or cut traffic. Nothing here
// touches the shared Redis or another engineer's databases.
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { portFree, releasePort, reservePort } from './processes';
import { openSse, type SseStream } from './sse-client';

export type ProxyMode =
  /** Forward both ways (after `delayMs`). */
  | 'pass'
  /** Accept and close at once: like a stopped server behind a load balancer. */
  | 'refuse'
  /**
   * Accept and hold every byte, either way, until the mode changes (then
   * deliver it, in order): a hung server, or a route that drops packets
   * (TCP retransmits them once it is back).
   */
  | 'stall';

interface Pair {
  client: Socket;
  upstream: Socket | null;
}

/**
 * A TCP proxy on 127.0.0.1 (an OS-assigned port) to `target`. `cut()` kills
 * every open connection; `mode` decides what new connections and traffic get;
 * `delayMs` holds every chunk back that long, in order, both ways.
 */
export class FaultProxy {
  private currentMode: ProxyMode = 'pass';
  private resume: { promise: Promise<void>; release: () => void } | null = null;
  delayMs = 0;
  /** Connections accepted so far (for the figures in docs/engineering/reliability.md). */
  accepted = 0;
  private readonly pairs = new Set<Pair>();
  private server: Server | null = null;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  get mode(): ProxyMode {
    return this.currentMode;
  }

  set mode(mode: ProxyMode) {
    this.currentMode = mode;
    if (mode === 'stall') {
      if (!this.resume) {
        let release = () => undefined as void;
        const promise = new Promise<void>((r) => (release = r));
        this.resume = { promise, release };
      }
    } else if (this.resume) {
      this.resume.release();
      this.resume = null;
    }
  }

  async start(): Promise<this> {
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
    return this;
  }

  /** Destroys every open connection, both sides (the proxy keeps listening). */
  cut(): number {
    const n = this.pairs.size;
    for (const pair of [...this.pairs]) this.drop(pair);
    return n;
  }

  get openConnections(): number {
    return this.pairs.size;
  }

  /** The local ports of the proxy's open connections to the target (PostgreSQL's `client_port` of each backend). */
  upstreamPorts(): number[] {
    return [...this.pairs].map((p) => p.upstream?.localPort).filter((port): port is number => typeof port === 'number');
  }

  async close(): Promise<void> {
    this.mode = 'pass';
    this.cut();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    this.accepted += 1;
    client.on('error', () => undefined);
    if (this.mode === 'refuse') {
      client.destroy();
      return;
    }
    const pair: Pair = { client, upstream: null };
    this.pairs.add(pair);
    client.on('close', () => this.drop(pair));
    const upstream = createConnection(this.target);
    pair.upstream = upstream;
    upstream.on('error', () => this.drop(pair));
    this.pipe(client, upstream, pair);
    const toClient = this.pipe(upstream, client, pair);
    // The server closing: what it sent last (e.g. PostgreSQL's FATAL before a
    // shutdown) still reaches the client, after the delay, then the close.
    upstream.on('close', () => void toClient().then(() => this.drop(pair)));
  }

  /**
   * Forwards `from` → `to`, each chunk after the current delay, keeping order;
   * held while stalled. Answers a function giving the promise of everything
   * received so far being forwarded.
   */
  private pipe(from: Socket, to: Socket, pair: Pair): () => Promise<void> {
    let chain = Promise.resolve();
    from.on('data', (chunk: Buffer) => {
      const delay = this.delayMs;
      chain = chain.then(async () => {
        if (delay > 0) await new Promise((r) => setTimeout(r, delay));
        while (this.resume) await this.resume.promise;
        if (!this.pairs.has(pair)) return;
        if (!to.destroyed) to.write(chunk);
      });
    });
    return () => chain;
  }

  private drop(pair: Pair): void {
    if (!this.pairs.delete(pair)) return;
    pair.client.destroy();
    pair.upstream?.destroy();
  }
}

/** Resolves once something accepts TCP connections on `port` and answers `probe` with a reply starting with `expect`. */
async function waitForReply(port: number, probe: string, expect: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      let text = '';
      const done = (v: boolean) => {
        socket.destroy();
        resolve(v);
      };
      socket.setTimeout(2_000, () => done(false));
      socket.on('error', () => done(false));
      socket.on('connect', () => socket.write(probe));
      socket.on('data', (d) => {
        text += d.toString();
        if (text.includes('\r\n')) done(text.startsWith(expect));
      });
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing answered on port ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A spare port for a test's redis-server: the first one of FAULT_REDIS_PORTS
 * (`first-last`, default 6390-6399) that nobody has reserved and nothing
 * listens on, reserved for this process (reservePort in processes.ts), so fault tests stay in
 * the ports set aside for them and never share a redis-server.
 */
export async function spareRedisPort(): Promise<number> {
  return reservePort('FAULT_REDIS_PORTS', process.env.FAULT_REDIS_PORTS ?? '6390-6399');
}

/** The pid of the redis-server answering on `port` (INFO server), or null when nothing answers. */
async function redisPid(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let text = '';
    const done = (v: number | null) => {
      socket.destroy();
      resolve(v);
    };
    socket.setTimeout(5_000, () => done(null));
    socket.on('error', () => done(null));
    socket.on('connect', () => socket.write('INFO server\r\n'));
    socket.on('data', (d) => {
      text += d.toString();
      const m = /process_id:(\d+)/.exec(text);
      if (m) done(Number(m[1]));
    });
  });
}

/**
 * A redis-server of the test's own (`--save "" --appendonly no`: a restart
 * comes back empty, like a crashed cache). stop() kills it, start() brings it
 * back on the same port, close() also gives the port back.
 */
export class RedisProcess {
  private child: ChildProcess | null = null;

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== null;
  }

  async start(): Promise<void> {
    if (this.child) return;
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    this.child = child;
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) => {
        if (this.child === child) this.child = null;
        reject(new Error(`redis-server on port ${this.port} exited (${signal ?? code}) while starting: is the port taken?`));
      }),
    );
    exited.catch(() => undefined);
    await Promise.race([waitForReply(this.port, 'PING\r\n', '+PONG', 30_000), exited]);
    // The answer must come from this child, not from a server someone else started on the port.
    let pid = await redisPid(this.port);
    for (const deadline = Date.now() + 30_000; pid === null && Date.now() < deadline; ) pid = await redisPid(this.port);
    if (pid !== child.pid) {
      child.kill('SIGKILL');
      throw new Error(`port ${this.port} is answered by redis-server pid ${pid}, not by ours (${child.pid})`);
    }
  }

  /** SIGKILL: the server vanishes mid-command, as in a crash. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    this.child = null;
    // The port is free again once the kernel has closed the listener.
    const deadline = Date.now() + 10_000;
    while (!(await portFree(this.port)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }

  /** Stops the server and gives its port back to other tests. */
  async close(): Promise<void> {
    await this.stop();
    releasePort(this.port);
  }
}

/**
 * A redis-server of the test's own (on spareRedisPort()) with a FaultProxy in
 * front, and this process's REDIS_URL and REDIS_COMMAND_TIMEOUT_MS pointed at
 * the proxy: a service started in this process afterwards reaches Redis only
 * through the proxy. The caller closes both (the proxy first).
 */
export async function redisBehindProxy(options: { commandTimeoutMs: number }): Promise<{ redis: RedisProcess; proxy: FaultProxy }> {
  const redis = new RedisProcess(await spareRedisPort());
  await redis.start();
  try {
    const proxy = await new FaultProxy({ host: '127.0.0.1', port: redis.port }).start();
    process.env.REDIS_URL = `redis://127.0.0.1:${proxy.port}`;
    process.env.REDIS_COMMAND_TIMEOUT_MS = String(options.commandTimeoutMs);
    return { redis, proxy };
  } catch (err) {
    await redis.close();
    throw err;
  }
}

/**
 * How the Redis client words a Redis that is gone or silent (a logged cause):
 * refused or closed connections, a command past REDIS_COMMAND_TIMEOUT_MS, or
 * ioredis giving up on a command after its retries while reconnecting.
 */
export const REDIS_FAILURE_CAUSE = /refused|closed|reset|timed out|max retries/i;

/** Opens the stream at `url` until it answers 200 (503 while Redis is away): the open stream. */
export function openSseWhenServing(url: string, headers: Record<string, string>, what: string): Promise<SseStream> {
  return waitUntil(async () => {
    const s = await openSse(url, headers);
    if (s.response.status === 200) return s;
    await s.close();
    return false;
  }, what);
}

/** Polls `check` until it returns true (or a value), failing after `timeoutMs` with `what`. */
export async function waitUntil<T>(check: () => Promise<T | false> | T | false, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  for (;;) {
    try {
      const v = await check();
      if (v !== false) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The longest a request may take in a fault test before it counts as a hang.
 * The tests set REDIS_COMMAND_TIMEOUT_MS / DATABASE_*_TIMEOUT_MS to about a
 * second, so a bounded request answers in a few; this leaves room for a
 * loaded 2-core machine.
 */
const HANG_MS = 30_000;

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
  ms: number;
}

/**
 * One HTTP call that must answer: a request still open after HANG_MS fails the
 * test ("hung"), and an answer other than `allowed` statuses (a 500, or a 503
 * whose body is not the spec's `unavailable`) fails it too.
 */
export async function bounded(url: string, init: RequestInit = {}, allowed: number[] = [200, 503]): Promise<Answer> {
  const started = Date.now();
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(HANG_MS) });
  } catch (err) {
    throw new Error(`${init.method ?? 'GET'} ${url} hung or failed after ${Date.now() - started} ms: ${String(err)}`);
  }
  const text = await res.text();
  const ms = Date.now() - started;
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { text };
  }
  if (!allowed.includes(res.status)) throw new Error(`${init.method ?? 'GET'} ${url}: unexpected ${res.status} ${text}`);
  if (res.status === 503 && body.error !== 'unavailable') throw new Error(`${url}: 503 without the spec's unavailable body: ${text}`);
  return { status: res.status, body, headers: res.headers, ms };
}
