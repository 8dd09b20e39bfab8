// The alert rules (ops/prometheus/questline-alerts.yml) and the Grafana
// dashboard (ops/grafana/questline-dashboard.json) name only metrics a real
// Questline exports on GET /api/metrics, and Prometheus's own `promtool`
// accepts the rules and every dashboard query (as recording rules of a
// scratch file). promtool comes from Debian's `prometheus` package (.ci/run
// installs it); without it the promtool checks are skipped locally and fail in CI.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@/lib/testing/test-server';

const RULES = path.join(__dirname, 'prometheus/questline-alerts.yml');
const DASHBOARD = path.join(__dirname, 'grafana/questline-dashboard.json');
const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status === 0;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** Every series name the server's /api/metrics can show: each `# TYPE` line, with a histogram's and a summary's own series. */
async function exported(): Promise<Set<string>> {
  const res = await fetch(`${server.url}/api/metrics`, { headers: { Authorization: `Bearer ${server.adminKey}` } });
  expect(res.status).toBe(200);
  const names = new Set<string>();
  for (const [, name, type] of (await res.text()).matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
  }
  return names;
}

const named = (text: string) => new Set(text.match(/\bquestline_[a-z0-9_]+/g) ?? []);

interface Panel {
  title: string;
  targets?: Array<{ expr: string }>;
}
const dashboardQueries = (): Array<{ title: string; expr: string }> =>
  (JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] }).panels.flatMap((p) => (p.targets ?? []).map((t) => ({ title: p.title, expr: t.expr })));

function runPromtool(args: string[]): { status: number | null; output: string } {
  const r = spawnSync('promtool', args, { encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('monitoring files', () => {
  it('the alert rules name only exported metrics', async () => {
    const metrics = await exported();
    const used = [...named(readFileSync(RULES, 'utf8'))];
    expect(used.length).toBeGreaterThan(5);
    expect(used.filter((m) => !metrics.has(m))).toEqual([]);
  });

  it('every dashboard query names at least one metric, and only exported ones', async () => {
    const metrics = await exported();
    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThan(10);
    for (const { title, expr } of queries) {
      const used = [...named(expr)];
      expect(used.length, title).toBeGreaterThan(0);
      expect(used.filter((m) => !metrics.has(m)), title).toEqual([]);
    }
  });

  it.skipIf(!promtool && !process.env.CI)('promtool accepts the alert rules', () => {
    expect(promtool, 'promtool is missing: apt-get install prometheus').toBe(true);
    const { status, output } = runPromtool(['check', 'rules', RULES]);
    expect(status, output).toBe(0);
  });

  it.skipIf(!promtool && !process.env.CI)('promtool parses every dashboard query', () => {
    expect(promtool, 'promtool is missing: apt-get install prometheus').toBe(true);
    const rules = dashboardQueries().map(({ expr }, i) => `      - record: questline:dashboard_query_${i}\n        expr: ${JSON.stringify(expr.replaceAll('$instance', '.*'))}`);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'questline-dashboard-')), 'queries.yml');
    writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${rules.join('\n')}\n`);
    const { status, output } = runPromtool(['check', 'rules', file]);
    expect(status, output).toBe(0);
  });
});
