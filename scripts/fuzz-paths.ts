// A quick fuzz of request paths and query strings against a running instance:
// malformed percent-escapes, overlong UTF-8, stray `%`, dots, slashes, long
// segments, with and without a token. Counts the answers by status class and
// lists every 5xx and every API answer that is not JSON or lacks X-Request-Id.
//   npx tsx scripts/fuzz-paths.ts http://127.0.0.1:3200 [requests=2000] [seed=1]
// Env: FUZZ_ADMIN_KEY (admin bearer for /api/admin paths), FUZZ_TOKEN (a /v1 JWT).
import { request } from 'node:http';

const base = new URL(process.argv[2] ?? 'http://127.0.0.1:3000');
const total = Number(process.argv[3] ?? 2000);
let seed = Number(process.argv[4] ?? 1);

/** mulberry32: deterministic, so a run can be repeated before and after a fix. */
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

const PIECES = [
  '%ff', '%FF', '%C0%AF', '%E0%80%AF', '%', '%%', '%g1', '%1', '%zz', '%ED%A0%80', '%F4%90%80%80', '%c3%28',
  '%00', '%2F', '%2f', '%5C', '%20', '%E2%82%AC', '%F0%9F%8E%AE', '..', '.', '~', '-', '_', 'a', 'Z', '9',
  'first-match', 'x'.repeat(300), '%41%42', '+', '@', ':', ';', '=', ',', '!', '*', "'", '(', ')', '$', '&',
] as const;
const PREFIXES = [
  '/v1/missions/', '/v1/', '/v1/campaigns/', '/v1/missions/{}/claim', '/v1/auth/', '/v1/sse/updates/',
  '/api/admin/apps/', '/api/admin/apps/{}/catalog', '/api/admin/apps/{}/rotate-secret', '/v1/balance/',
] as const;
const QUERY_KEYS = ['status', 'limit', 'cursor', 'campaignId', 'include', 'currency', 'access_token', 'lastEventId', '%ff'] as const;

function segment(): string {
  let out = '';
  const n = 1 + Math.floor(random() * 4);
  for (let i = 0; i < n; i++) out += pick(PIECES);
  return out;
}

function makePath(): string {
  const prefix = pick(PREFIXES);
  let path = prefix.includes('{}') ? prefix.replace('{}', segment()) : prefix + segment();
  if (random() < 0.2) path += '/' + segment();
  if (random() < 0.4) {
    const pairs = Array.from({ length: 1 + Math.floor(random() * 3) }, () => `${pick(QUERY_KEYS)}=${segment()}`);
    path += '?' + pairs.join('&');
  }
  return path;
}

interface Answer {
  status: number;
  contentType: string;
  requestId: string | undefined;
}

function send(method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, method, path, headers }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), requestId: res.headers['x-request-id'] as string | undefined }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const counts: Record<string, number> = {};
  const problems: string[] = [];
  for (let i = 0; i < total; i++) {
    const path = makePath();
    const method = pick(['GET', 'GET', 'POST', 'PUT', 'HEAD'] as const);
    const headers: Record<string, string> = {};
    const admin = path.startsWith('/api/admin');
    const withAuth = random() < 0.6;
    if (withAuth && admin && process.env.FUZZ_ADMIN_KEY) headers.Authorization = `Bearer ${process.env.FUZZ_ADMIN_KEY}`;
    if (withAuth && !admin && process.env.FUZZ_TOKEN) headers.Authorization = `Bearer ${process.env.FUZZ_TOKEN}`;
    let answer: Answer;
    try {
      answer = await send(method, path, headers);
    } catch (err) {
      counts.error = (counts.error ?? 0) + 1;
      problems.push(`${method} ${path} -> ${(err as Error).message}`);
      continue;
    }
    const cls = `${Math.floor(answer.status / 100)}xx`;
    counts[cls] = (counts[cls] ?? 0) + 1;
    const json = answer.contentType.startsWith('application/json');
    const bodyless = method === 'HEAD' || answer.status === 204;
    if (answer.status >= 500) problems.push(`${method} ${path} -> ${answer.status} ${answer.contentType}`);
    else if (!answer.requestId || (!json && !bodyless)) problems.push(`${method} ${path} -> ${answer.status} ${answer.contentType || '(no type)'}${answer.requestId ? '' : ', no X-Request-Id'}`);
  }
  console.log(JSON.stringify({ target: base.origin, requests: total, byStatusClass: counts, problems: problems.length }, null, 2));
  for (const p of problems.slice(0, 40)) console.log('  ' + p);
  if (problems.length > 40) console.log(`  … ${problems.length - 40} more`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
