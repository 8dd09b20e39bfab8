// The long fuzz run (the suite runs a short one: lib/http/fuzz.test.ts). Same
// generator and checks (lib/testing/fuzz.ts): every /v1, admin and ops
// endpoint, mutated and arbitrary JSON, hostile paths, headers and bytes;
// only documented 4xx codes, never a 5xx.
//   npx tsx scripts/fuzz.ts [--count 20000] [--seed N] [--seeds 5]
//     in-process server on the embedded database, or on DATABASE_URL/REDIS_URL
//     when set, also checking that every refused write left the database as it was;
//   ADMIN_API_KEY=… npx tsx scripts/fuzz.ts --url http://127.0.0.1:3000 [--count …]
//     against a running instance (statuses and bodies only).
// Exit 1 when any problem was found; each problem names its seed and request number.
import { parseArgs } from 'node:util';
import { refreshCredentials, runFuzz, namesIn, type FuzzCredentials, type FuzzReport, type FuzzRequest } from '@/lib/testing/fuzz';

const { values } = parseArgs({
  options: { url: { type: 'string' }, count: { type: 'string', default: '20000' }, seed: { type: 'string' }, seeds: { type: 'string', default: '1' } },
});
const count = Number(values.count);
const firstSeed = values.seed ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const seeds = Array.from({ length: Number(values.seeds) }, (_, i) => firstSeed + i);

async function credentialsFor(base: URL, adminKey: string): Promise<FuzzCredentials> {
  const appId = `fuzz-${Date.now().toString(36)}`;
  const admin = (method: string, path: string, body: unknown) =>
    fetch(new URL(path, base), { method, headers: { Authorization: `Bearer ${adminKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const created = await admin('POST', '/api/admin/apps', { id: appId, name: 'Fuzz' });
  if (created.status !== 201) throw new Error(`create app: ${created.status} ${await created.text()}`);
  const { appSecret, webhookSecret } = (await created.json()) as { appSecret: string; webhookSecret: string };
  const mission = (id: string, count: number) => ({ id, title: id, criteria: { eventName: 'play', count }, reward: { kind: 'currency', currency: 'gems', amount: 5 } });
  const put = await admin('PUT', `/api/admin/apps/${appId}/catalog`, { missions: [mission('f1', 2), mission('f2', 1)], campaigns: [] });
  if (put.status !== 200) throw new Error(`put catalog: ${put.status} ${await put.text()}`);
  const token = await fetch(new URL('/v1/auth/token', base), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ appId, appSecret, userId: 'fuzz-user' }),
  });
  if (token.status !== 200) throw new Error(`token: ${token.status}`);
  const { accessToken } = (await token.json()) as { accessToken: string };
  return { appId, appSecret, webhookSecret, adminKey, token: accessToken, userId: 'fuzz-user', missionIds: ['f1', 'f2', 'missing'] };
}

async function main(): Promise<void> {
  let base: URL;
  let close = async () => undefined as void;
  let dbChecks: { snapshot: () => Promise<unknown>; unchanged: (before: unknown, req: FuzzRequest) => Promise<string | null> } | null = null;
  let adminKey = process.env.ADMIN_API_KEY ?? '';
  if (values.url) {
    base = new URL(values.url);
    if (!adminKey) throw new Error('--url needs ADMIN_API_KEY');
  } else {
    const { startTestServer } = await import('@/lib/testing/test-server');
    const server = await startTestServer();
    base = new URL(server.url);
    adminKey = server.adminKey;
    close = server.close;
  }
  let credentials = await credentialsFor(base, adminKey);
  const appId = credentials.appId;
  if (!values.url) {
    const { appRowCounts, rowsNamedBy } = await import('@/lib/testing/row-counts');
    dbChecks = {
      snapshot: () => appRowCounts([appId]),
      unchanged: async (before, req) => {
        const after = await appRowCounts([appId]);
        if (JSON.stringify(after) !== JSON.stringify(before)) return `rows changed: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`;
        const names = namesIn(req.body);
        const named = await rowsNamedBy(names);
        return named > (names.includes(appId) ? 1 : 0) ? `a row named in the body exists (${named})` : null;
      },
    };
  }
  const reports: FuzzReport[] = [];
  for (const seed of seeds) {
    const started = Date.now();
    const report = await runFuzz({
      base,
      seed,
      count,
      credentials,
      refresh: (c, req, answer) => refreshCredentials(base, c, req, answer),
      ...(dbChecks ?? {}),
    });
    reports.push(report);
    credentials = report.credentials;
    console.log(JSON.stringify({ seed, requests: count, seconds: (Date.now() - started) / 1000, byStatus: report.byStatus, problems: report.problems.length }));
    for (const p of report.problems.slice(0, 40)) console.log(`  seed ${seed} ${p}`);
  }
  await close();
  process.exit(reports.some((r) => r.problems.length > 0) ? 1 : 0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
