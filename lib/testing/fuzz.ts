// A seeded fuzzer over every /v1, admin and ops endpoint of a running server:
// valid requests mutated (fields dropped, types changed, `__proto__` and
// `constructor` keys, out-of-range numbers, NUL and lone surrogates, huge and
// deeply nested bodies, invalid UTF-8, truncated JSON), arbitrary JSON, wrong
// content types and methods, very long ids, malformed percent-escapes and
// random paths. Requests go over raw TCP, so bytes no client library would
// send (invalid UTF-8 in a path) are sent as is. Used by the short run of
// lib/http/fuzz.test.ts and the long run of scripts/fuzz.ts.
import { createHmac, randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { ERRORS, type ErrorCode } from '@/lib/contract/errors';

/** mulberry32: deterministic, so a failing run replays from its seed. */
function seededRandom(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FuzzCredentials {
  appId: string;
  appSecret: string;
  webhookSecret: string;
  adminKey: string;
  /** A valid token of `userId` in the app. */
  token: string;
  userId: string;
  missionIds: string[];
}

export interface FuzzRequest {
  method: string;
  /** Raw bytes of the request target (may hold invalid UTF-8). */
  target: Buffer;
  headers: Record<string, string>;
  body: Buffer | null;
  /** The route pattern aimed at, or `random`. */
  route: string;
}

export interface FuzzAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

const PATH_PIECES = [
  '%ff', '%C0%AF', '%E0%80%AF', '%', '%%', '%g1', '%ED%A0%80', '%00', '%2F', '%5C', '%20', '%F0%9F%8E%AE',
  '..', '.', '~', 'a', '9', '+', '@', ':', ';', '=', ',', '!', '*', "'", '(', ')', '$', '&',
] as const;

const OUT_OF_RANGE = ['1e999', '-1e999', '1E400', '123e456'];
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', '__defineGetter__', 'toString', 'hasOwnProperty'];
const CONTENT_TYPES = [
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  '',
  'application/json; charset=latin1',
];

/** The route table as the fuzzer aims at it: pattern, methods, and a valid body when it takes one. */
interface Target {
  path: string;
  methods: string[];
  kind: 'v1' | 'admin' | 'ops' | 'webhook' | 'token';
  body?: (c: FuzzCredentials) => unknown;
  query?: string[];
}

const mission = (id: string) => ({ id, title: `Fuzz ${id}`, criteria: { eventName: 'play', count: 2 }, reward: { kind: 'currency', currency: 'gems', amount: 5 } });

const TARGETS: Target[] = [
  { path: '/v1/auth/token', methods: ['POST'], kind: 'token', body: (c) => ({ appId: c.appId, appSecret: c.appSecret, userId: c.userId }) },
  { path: '/v1/auth/revoke', methods: ['POST'], kind: 'v1' },
  { path: '/v1/events', methods: ['POST'], kind: 'v1', body: (c) => ({ userId: c.userId, name: 'play', payload: { level: 3, mode: 'ranked' }, timestamp: Date.now(), idempotencyKey: randomUUID() }) },
  { path: '/v1/missions', methods: ['GET'], kind: 'v1', query: ['status', 'limit', 'cursor', 'campaignId'] },
  { path: '/v1/missions/:id', methods: ['GET'], kind: 'v1' },
  { path: '/v1/missions/:id/claim', methods: ['POST'], kind: 'v1' },
  { path: '/v1/balance', methods: ['GET'], kind: 'v1', query: ['currency'] },
  { path: '/v1/campaigns', methods: ['GET'], kind: 'v1', query: ['include', 'limit', 'cursor'] },
  { path: '/v1/campaigns/:id', methods: ['GET'], kind: 'v1' },
  { path: '/v1/sse/updates', methods: ['GET'], kind: 'v1', query: ['lastEventId', 'access_token'] },
  { path: '/v1/openapi.json', methods: ['GET'], kind: 'v1' },
  { path: '/v1/recommendations', methods: ['GET'], kind: 'v1', query: ['limit'] },
  {
    path: '/v1/webhook/incoming',
    methods: ['POST'],
    kind: 'webhook',
    body: (c) => ({ events: [{ userId: c.userId, name: 'play', payload: { level: 1 }, timestamp: Date.now(), idempotencyKey: randomUUID() }] }),
  },
  { path: '/api/admin/apps', methods: ['GET', 'POST'], kind: 'admin', body: () => ({ id: `fuzz-new-${randomUUID().slice(0, 8)}`, name: 'Fuzz new' }) },
  { path: '/api/admin/apps/:appId/catalog', methods: ['GET', 'PUT'], kind: 'admin', body: () => ({ missions: [mission('f1'), mission('f2')], campaigns: [] }) },
  { path: '/api/admin/apps/:appId/rotate-secret', methods: ['POST'], kind: 'admin', body: () => ({}) },
  { path: '/api/admin/apps/:appId/revocations', methods: ['POST'], kind: 'admin', body: (c) => ({ userId: c.userId }) },
  { path: '/api/admin/apps/:appId/rotate-webhook-secret', methods: ['POST'], kind: 'admin', body: () => ({ gracePeriodSeconds: 3600 }) },
  { path: '/api/admin/apps/:appId/analytics', methods: ['GET'], kind: 'admin', query: ['from', 'to', 'bucket', 'range'] },
  { path: '/api/admin/apps/:appId/users/:userId', methods: ['GET'], kind: 'admin' },
  { path: '/api/admin/apps/:appId/users/:userId/events', methods: ['POST'], kind: 'admin', body: () => ({ name: 'play', payload: { level: 2 } }) },
  { path: '/api/admin/apps/:appId/users/:userId/updates', methods: ['GET'], kind: 'admin', query: ['lastEventId'] },
  { path: '/api/admin/me', methods: ['GET'], kind: 'admin' },
  { path: '/api/admin/staff', methods: ['GET', 'POST'], kind: 'admin', body: () => ({ email: `fuzz-${randomUUID().slice(0, 8)}@example.com`, password: 'fuzz-password-0123', role: 'support' }) },
  { path: '/api/admin/staff/:staffId', methods: ['PATCH', 'DELETE'], kind: 'admin', body: () => ({ role: 'editor' }) },
  { path: '/api/admin/openapi.json', methods: ['GET'], kind: 'admin' },
  { path: '/api/health', methods: ['GET'], kind: 'ops' },
  { path: '/api/ready', methods: ['GET'], kind: 'ops' },
  { path: '/api/metrics', methods: ['GET'], kind: 'ops' },
];

/** Builds requests from one seed; the same seed and credentials give the same sequence (ids aside). */
class Fuzzer {
  readonly random: () => number;
  constructor(readonly seed: number) {
    this.random = seededRandom(seed);
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }
  private int(n: number): number {
    return Math.floor(this.random() * n);
  }
  private pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }

  private segment(): string {
    let out = '';
    for (let i = 0, n = 1 + this.int(3); i < n; i++) out += this.pick(PATH_PIECES);
    return out;
  }

  /** A path parameter: mostly real, else hostile (long, escaped, unicode, empty-looking). */
  private param(name: string, c: FuzzCredentials): string {
    const roll = this.random();
    if (roll < 0.5) {
      if (name === 'appId') return encodeURIComponent(c.appId);
      if (name === 'id') return encodeURIComponent(this.pick([...c.missionIds, 'camp-1']));
      if (name === 'userId') return encodeURIComponent(c.userId);
      return randomUUID();
    }
    if (roll < 0.6) return 'x'.repeat(1 + this.int(20_000));
    if (roll < 0.7) return encodeURIComponent('é🎮\u0000'.repeat(1 + this.int(5)));
    if (roll < 0.8) return '%ED%A0%80';
    return this.segment();
  }

  private arbitrary(depth = 0): unknown {
    const roll = this.int(depth > 3 ? 5 : 8);
    switch (roll) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return this.pick([0, -1, 1.5, 2 ** 53 + 2, -(2 ** 63), Number.MAX_VALUE, 5e-324]);
      case 3:
        return this.pick(['', 'x', 'é', '\u0000', '\ud800', '🎮', 'a'.repeat(300), '1e999', '__proto__']);
      case 4:
        return this.int(3) === 0 ? randomUUID() : String(this.int(1000));
      case 5:
      case 6:
        return Array.from({ length: this.int(4) }, () => this.arbitrary(depth + 1));
      default: {
        const out: Record<string, unknown> = {};
        for (let i = 0, n = this.int(4); i < n; i++) out[this.pick([...HOSTILE_KEYS, 'a', 'userId', 'name', 'payload', 'events', 'missions'])] = this.arbitrary(depth + 1);
        return out;
      }
    }
  }

  /** A valid value mutated one or a few ways; answers JSON text (some mutations only exist as text). */
  private mutate(value: unknown): string {
    const copy = JSON.parse(JSON.stringify(value ?? {})) as Record<string, unknown>;
    const leaves: { parent: Record<string, unknown>; key: string }[] = [];
    const walk = (node: unknown) => {
      if (node && typeof node === 'object') {
        for (const key of Object.keys(node)) {
          leaves.push({ parent: node as Record<string, unknown>, key });
          walk((node as Record<string, unknown>)[key]);
        }
      }
    };
    walk(copy);
    let text: string | null = null;
    for (let i = 0, n = 1 + this.int(2); i < n; i++) {
      const leaf = leaves.length > 0 ? this.pick(leaves) : null;
      switch (this.int(9)) {
        case 0:
          if (leaf) delete leaf.parent[leaf.key];
          break;
        case 1:
          if (leaf) leaf.parent[leaf.key] = this.arbitrary();
          break;
        case 2: {
          // Hostile keys written into the text itself (JSON.stringify would drop a real __proto__).
          const key = this.pick(HOSTILE_KEYS);
          const inner = this.chance(0.5) ? '{"isAdmin":true,"polluted":1}' : JSON.stringify(this.arbitrary());
          text = (text ?? JSON.stringify(copy)).replace(/^\{/, `{"${key}":${inner},`).replace(/,}$/, '}');
          break;
        }
        case 3:
          if (leaf) leaf.parent[leaf.key] = 'NUMBER_PLACEHOLDER';
          text = JSON.stringify(copy).replace('"NUMBER_PLACEHOLDER"', this.pick(OUT_OF_RANGE));
          break;
        case 4:
          if (leaf) leaf.parent[leaf.key] = this.pick(['\u0000', '\ud800x', 'x\udfff', 'a'.repeat(70_000)]);
          break;
        case 5: {
          // Written as text: a structure this deep would overflow JSON.stringify's stack here.
          const depth = this.pick([33, 500, 5_000]);
          if (leaf) leaf.parent[leaf.key] = 'NESTED_PLACEHOLDER';
          text = JSON.stringify(copy).replace('"NESTED_PLACEHOLDER"', `${'[{"a":'.repeat(depth)}1${'}]'.repeat(depth)}`);
          break;
        }
        case 6:
          text = (text ?? JSON.stringify(copy)).slice(0, Math.max(1, this.int(JSON.stringify(copy).length)));
          break;
        case 7:
          if (leaf) leaf.parent[leaf.key] = 'x'.repeat(this.pick([256, 1_025, 20_000]));
          break;
        default:
          text = `${text ?? JSON.stringify(copy)}${this.pick([' trailing', '}', ',', '\n\n{"a":1}'])}`;
      }
    }
    return text ?? JSON.stringify(copy);
  }

  private bodyFor(target: Target, c: FuzzCredentials): Buffer | null {
    const roll = this.random();
    if (roll < 0.08) return null;
    if (roll < 0.14) return Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x22, 0x7d]); // {"a":"<invalid UTF-8>"}
    if (roll < 0.18) return Buffer.from('['.repeat(this.pick([1_000, 60_000])) + ']'.repeat(this.pick([0, 1_000])));
    if (roll < 0.22) return Buffer.alloc(this.pick([65_537, 200_000]), 0x20);
    if (roll < 0.3) return Buffer.from(JSON.stringify(this.arbitrary()));
    if (roll < 0.33) return Buffer.from('a=1&b=2');
    const valid = target.body?.(c) ?? {};
    return Buffer.from(roll < 0.45 ? JSON.stringify(valid) : this.mutate(valid));
  }

  private query(target: Target, c: FuzzCredentials): string {
    if (!this.chance(0.4)) return '';
    const keys = [...(target.query ?? []), 'limit', '%ff', 'a%', 'x'.repeat(50)];
    const pairs = Array.from({ length: 1 + this.int(3) }, () => {
      const key = this.pick(keys);
      const value = key === 'access_token' && this.chance(0.5) ? c.token : this.pick(['', '-1', '0', '1e999', '101', 'abc', '%zz', '%00', '%ED%A0%80', this.segment(), 'x'.repeat(5_000)]);
      return `${key}=${value}`;
    });
    return `?${pairs.join('&')}`;
  }

  /** The next request of the sequence. */
  next(c: FuzzCredentials): FuzzRequest {
    const headers: Record<string, string> = {};
    if (this.chance(0.07)) {
      // A random path under the API prefixes, possibly with bytes that are not UTF-8.
      const prefix = this.pick(['/v1/', '/api/admin/', '/api/', '/v1/missions/', '/api/admin/apps/']);
      const target = Buffer.concat([Buffer.from(prefix + this.segment()), this.chance(0.3) ? Buffer.from([0xff, 0xc3, 0x28]) : Buffer.alloc(0)]);
      if (this.chance(0.5)) headers.authorization = `Bearer ${prefix.startsWith('/v1') ? c.token : c.adminKey}`;
      return { method: this.pick(METHODS), target, headers, body: null, route: 'random' };
    }
    const target = this.pick(TARGETS);
    const method = this.chance(0.85) ? this.pick(target.methods) : this.pick(METHODS);
    const path = target.path.replace(/:(\w+)/g, (_m, name: string) => this.param(name, c)) + this.query(target, c);
    const auth = this.random();
    if (target.kind === 'admin' || target.kind === 'ops') {
      if (auth < 0.8) headers.authorization = `Bearer ${c.adminKey}`;
      else if (auth < 0.9) headers.authorization = `Bearer ${c.token}`;
    } else if (target.kind === 'v1') {
      if (auth < 0.85) headers.authorization = `Bearer ${c.token}`;
      else if (auth < 0.92) headers.authorization = this.pick(['Bearer', 'Bearer x.y.z', `Basic ${c.token}`, `Bearer ${c.adminKey}`]);
    }
    const sendsBody = method !== 'GET' && method !== 'HEAD' && (target.body !== undefined || this.chance(0.3));
    const body = sendsBody ? this.bodyFor(target, c) : null;
    const contentType = this.pick(CONTENT_TYPES);
    if (body && contentType) headers['content-type'] = contentType;
    if (target.kind === 'webhook') {
      const timestamp = String(this.chance(0.9) ? Date.now() : Date.now() - 3_600_000);
      headers['x-app-id'] = this.chance(0.9) ? c.appId : this.segment();
      headers['x-webhook-id'] = this.chance(0.9) ? `whk_${randomUUID()}` : this.pick(['', 'x'.repeat(300)]);
      headers['x-webhook-timestamp'] = timestamp;
      const mac = createHmac('sha256', c.webhookSecret).update(`${timestamp}.`).update(body ?? Buffer.alloc(0)).digest('hex');
      headers['x-webhook-signature'] = this.chance(0.8) ? `v1=${mac}` : this.pick(['v1=00', '', `v2=${mac}`]);
    }
    if ((target.path === '/v1/events' || target.path.endsWith('/claim')) && this.chance(0.3)) {
      headers['idempotency-key'] = this.pick(['', 'k', 'x'.repeat(300), randomUUID()]);
    }
    return { method, target: Buffer.from(path), headers, body, route: target.path };
  }
}

function decodeChunked(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Sends one request over a fresh TCP connection and reads the whole answer (a stream: its head only). */
function sendRaw(base: URL, req: FuzzRequest, timeoutMs = 60_000): Promise<FuzzAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(base.port), base.hostname);
    const lines = [`${req.method} `];
    const head = [
      Buffer.from(lines[0], 'latin1'),
      req.target,
      Buffer.from(
        ` HTTP/1.1\r\nHost: ${base.host}\r\nConnection: close\r\n` +
          Object.entries(req.headers)
            .map(([k, v]) => `${k}: ${v}\r\n`)
            .join('') +
          (req.body ? `Content-Length: ${req.body.length}\r\n` : '') +
          '\r\n',
        'latin1',
      ),
    ];
    const chunks: Buffer[] = [];
    let settled = false;
    const timer = setTimeout(() => finish(new Error(`no complete answer within ${timeoutMs} ms`)), timeoutMs);
    const finish = (err: Error | null, answer?: FuzzAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(answer!);
    };
    const parse = (final: boolean): FuzzAnswer | null => {
      const data = Buffer.concat(chunks);
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return null;
      const [statusLine, ...headerLines] = data.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const status = Number(statusLine.split(' ')[1]);
      const rest = data.subarray(end + 4);
      if (headers['content-type']?.startsWith('text/event-stream')) return { status, headers, body: Buffer.alloc(0) };
      if (req.method === 'HEAD' || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
      const length = headers['content-length'];
      if (length !== undefined) return rest.length >= Number(length) ? { status, headers, body: rest.subarray(0, Number(length)) } : null;
      if (headers['transfer-encoding'] === 'chunked') return rest.includes('0\r\n\r\n') || final ? { status, headers, body: decodeChunked(rest) } : null;
      return final ? { status, headers, body: rest } : null;
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const answer = parse(false);
      if (answer) finish(null, answer);
    });
    socket.on('end', () => {
      const answer = parse(true);
      if (answer) finish(null, answer);
      else finish(new Error('connection closed before a complete answer'));
    });
    // The server may answer (413, 400) and close before the whole body is sent: that is an answer.
    socket.on('error', (err) => {
      const answer = parse(true);
      if (answer) finish(null, answer);
      else finish(err);
    });
    socket.write(Buffer.concat(head));
    if (req.body) socket.write(req.body);
  });
}

/** What is wrong with an answer, or null: a 5xx, or a 4xx that is not a documented code with its status, JSON and a request id. */
function problemWith(req: FuzzRequest, answer: FuzzAnswer): string | null {
  if (answer.status >= 500) return `${answer.status} (${answer.body.toString('utf8').slice(0, 200)})`;
  if (answer.status < 100) return `no status (${answer.status})`;
  if (answer.status >= 400) {
    if (!answer.headers['x-request-id']) return `${answer.status} without X-Request-Id`;
    if (req.method === 'HEAD') return null;
    let body: { error?: unknown };
    try {
      body = JSON.parse(answer.body.toString('utf8')) as { error?: unknown };
    } catch {
      return `${answer.status} with a body that is not JSON: ${answer.body.toString('utf8').slice(0, 120)}`;
    }
    const code = body.error as ErrorCode;
    if (typeof code !== 'string' || !(code in ERRORS)) return `${answer.status} with an undocumented error code ${JSON.stringify(body.error)}`;
    if (ERRORS[code].status !== answer.status) return `${answer.status} with the code ${code}, documented as ${ERRORS[code].status}`;
  }
  return null;
}

/** A request written for people: method, target (bytes that are not UTF-8 escaped), headers, the body's head. */
function describeRequest(req: FuzzRequest): string {
  const target = req.target.toString('latin1').replace(/[^\x20-\x7e]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
  const shortTarget = target.length > 200 ? `${target.slice(0, 200)}…(${target.length} bytes)` : target;
  const body = req.body ? ` body(${req.body.length} bytes)=${JSON.stringify(req.body.subarray(0, 160).toString('utf8'))}` : '';
  const headers = Object.entries(req.headers)
    .filter(([k]) => k !== 'authorization')
    .map(([k, v]) => `${k}: ${v.slice(0, 60)}`)
    .join('; ');
  return `${req.method} ${shortTarget} [${req.headers.authorization ? 'auth; ' : ''}${headers}]${body}`;
}

/** Whether the request could write (so a refusal must leave the database as it was). */
function isWrite(req: FuzzRequest): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(req.method);
}

/** Strings of a body that could name an app or a staff member it created (checked absent after a refusal). */
export function namesIn(body: Buffer | null): string[] {
  if (!body || body.length > 70_000) return [];
  const out = new Set<string>();
  for (const match of body.toString('utf8').matchAll(/"((?:[^"\\]|\\.){1,200})"/g)) out.add(match[1]);
  return [...out].slice(0, 200);
}

export interface FuzzRun {
  base: URL;
  seed: number;
  count: number;
  credentials: FuzzCredentials;
  /** New credentials after a request changed them (secret rotated, token revoked). */
  refresh: (c: FuzzCredentials, req: FuzzRequest, answer: FuzzAnswer) => Promise<FuzzCredentials>;
  /** Optional database check: what a write request may change, read before it... */
  snapshot?: () => Promise<unknown>;
  /** ...and compared after it was refused; answers a problem or null. */
  unchanged?: (before: unknown, req: FuzzRequest) => Promise<string | null>;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  byStatus: Record<string, number>;
  problems: string[];
  /** The credentials at the end (a run may rotate secrets and revoke tokens): the next run starts from these. */
  credentials: FuzzCredentials;
}

export async function runFuzz(run: FuzzRun): Promise<FuzzReport> {
  const fuzzer = new Fuzzer(run.seed);
  let credentials = run.credentials;
  const byStatus: Record<string, number> = {};
  const problems: string[] = [];
  for (let i = 0; i < run.count; i++) {
    const req = fuzzer.next(credentials);
    const write = isWrite(req) && run.snapshot !== undefined;
    const before = write ? await run.snapshot!() : null;
    let answer: FuzzAnswer;
    try {
      answer = await sendRaw(run.base, req);
    } catch (err) {
      problems.push(`#${i} ${describeRequest(req)} -> ${(err as Error).message}`);
      continue;
    }
    byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
    const problem = problemWith(req, answer);
    if (problem) problems.push(`#${i} ${describeRequest(req)} -> ${problem}`);
    if (write && answer.status >= 400 && run.unchanged) {
      const changed = await run.unchanged(before, req);
      if (changed) problems.push(`#${i} ${describeRequest(req)} -> ${answer.status}, yet ${changed}`);
    }
    if (answer.status < 300) credentials = await run.refresh(credentials, req, answer);
  }
  return { seed: run.seed, requests: run.count, byStatus, problems, credentials };
}

/** After a 2xx that changed credentials: a new token (revocation, secret rotation), the new secrets. */
export async function refreshCredentials(base: URL, c: FuzzCredentials, req: FuzzRequest, answer: FuzzAnswer): Promise<FuzzCredentials> {
  const route = req.route;
  let next = c;
  if (route.endsWith('/rotate-secret')) {
    const body = JSON.parse(answer.body.toString('utf8')) as { appSecret?: string };
    if (body.appSecret) next = { ...next, appSecret: body.appSecret };
  } else if (route.endsWith('/rotate-webhook-secret')) {
    const body = JSON.parse(answer.body.toString('utf8')) as { webhookSecret?: string };
    if (body.webhookSecret) next = { ...next, webhookSecret: body.webhookSecret };
  } else if (!(route.endsWith('/revocations') || route === '/v1/auth/revoke')) {
    return c;
  }
  // Revocations and rotations end the current token: take a fresh one (after the revocation's instant).
  await new Promise((r) => setTimeout(r, 2));
  const res = await fetch(new URL('/v1/auth/token', base), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ appId: next.appId, appSecret: next.appSecret, userId: next.userId }),
  });
  if (res.status !== 200) throw new Error(`fuzz: could not take a new token (${res.status} ${await res.text()})`);
  return { ...next, token: ((await res.json()) as { accessToken: string }).accessToken };
}
