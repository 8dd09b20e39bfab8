// The repository's documentation stands on its own: it cites no file outside
// the repository, its relative links and their anchors resolve (as GitHub
// renders them), the configuration reference names every variable the
// service reads, and the error-code reference every code of the contract.
// The quickstart's runnable blocks are run by docs/quickstart.test.ts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '@/lib/contract/errors';
import { NOTIFICATION_TYPES } from '@/lib/contract/outbound';
import { sdkUpdateSchema } from '@/lib/contract/updates';
import { getAdminOpenApiDocument } from '@/lib/http/admin/openapi';
import { getOpenApiDocument } from '@/lib/http/v1/openapi';
import { anchors, relativeLinks, slug } from '@/lib/testing/markdown';

const root = path.resolve(__dirname, '..');
/** Every .md file under docs/, at any depth, as a path from the repository's root. */
function markdownUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownUnder(`${dir}/${e.name}`) : e.name.endsWith('.md') ? [`${dir}/${e.name}`] : [],
  );
}
const docs = ['README.md', 'CONTRIBUTING.md', 'sdk/csharp/README.md', ...markdownUnder('docs')];
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** The service's own source files: what `npm start`, `next start` and the routes run (not tests, test support, benchmarks or tooling). */
function serviceSources(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(`${dir}/${e.name}`) : /\.(ts|tsx|mjs)$/.test(e.name) && !/\.(test|spec)\./.test(e.name) ? [`${dir}/${e.name}`] : [],
    );
  return [...walk('lib'), ...walk('db'), ...walk('app'), 'instrumentation.ts', 'proxy.ts', 'scripts/start.mjs', 'scripts/server.ts', 'scripts/serve.ts'].filter(
    (f) => !f.startsWith('lib/testing/') && f !== 'lib/kv/testing.ts',
  );
}

/**
 * Not configuration: set by Node.js, Next.js or the tooling (NODE_ENV, NEXT_*,
 * CI), by the service for its own worker processes, and the test-only knobs
 * (QUESTLINE_TEST_*, documented in docs/operations/README.md, never set in production).
 */
const NOT_CONFIGURATION = /^(NODE_ENV|NEXT_[A-Z_]+|CI|QUESTLINE_FORKED_WORKER|QUESTLINE_TEST_[A-Z_]+)$/;

/** Every environment variable the service's code reads: `process.env.X`, `env.X`, `env['X']`, or a name handed to a reader (`nonEmpty(env, 'X')`, `envMs('X', …)`). */
function serviceVariables(): Set<string> {
  const names = new Set<string>();
  for (const file of serviceSources()) {
    const text = read(file);
    if (!/process\.env|\benv\b/.test(text)) continue;
    for (const m of text.matchAll(/(?:process\.env|\benv)(?:\.([A-Z][A-Z0-9_]+)|\[['"]([A-Z][A-Z0-9_]+)['"]\])|['"]([A-Z][A-Z0-9]*_[A-Z0-9_]+)['"]/g)) {
      const name = m[1] ?? m[2] ?? m[3];
      if (!NOT_CONFIGURATION.test(name)) names.add(name);
    }
  }
  return names;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** The operations of a served OpenAPI document (its `paths`; the outbound `webhooks` are calls Questline makes, not operations it serves). */
function operationCount(doc: { paths: Record<string, Record<string, unknown>> }): number {
  return Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).filter((m) => HTTP_METHODS.has(m)).length, 0);
}

describe('documentation', () => {
  it.each(docs)('%s cites no document outside the repository', (file) => {
    expect(read(file)).not.toMatch(/service-spec\.md|decisions\.md/);
  });

  it.each(docs)('%s links only to files that exist, and to anchors those files have', (file) => {
    const links = relativeLinks(read(file));
    for (const link of links) {
      const target = link.path === '' ? file : path.relative(root, path.resolve(root, path.dirname(file), link.path));
      const where = `${file} → ${link.path}${link.anchor === null ? '' : `#${link.anchor}`}`;
      expect(existsSync(path.join(root, target)), where).toBe(true);
      if (link.anchor === null) continue;
      expect(target.endsWith('.md') && statSync(path.join(root, target)).isFile(), `${where}: an anchor into a file that is not Markdown`).toBe(true);
      expect([...anchors(read(target))], where).toContain(link.anchor);
    }
  });

  it('reads anchors as GitHub makes them', () => {
    expect(slug('Redis outages: what each use does')).toBe('redis-outages-what-each-use-does');
    expect(slug('`GET /v1/sse/updates`')).toBe('get-v1sseupdates');
    expect(slug('Where it stands: the merged main on a quiet machine — 2026-11-24 01:42 UTC')).toBe('where-it-stands-the-merged-main-on-a-quiet-machine--2026-11-24-0142-utc');
    expect(slug('The fast tier and the slowest files (issue 21 §2)')).toBe('the-fast-tier-and-the-slowest-files-issue-21-2');
    expect(slug('Mission rules (the criteria engine, `lib/missions/engine.ts`)')).toBe('mission-rules-the-criteria-engine-libmissionsenginets');
    expect(slug('Players\' data requests (export and erasure)')).toBe('players-data-requests-export-and-erasure');
    expect(slug('See [the API](api.md) here')).toBe('see-the-api-here');
    // A repeated heading gets -1, -2; a heading inside fenced code is none.
    expect([...anchors('# A\n\n## A\n\n```sh\n# B\n```\n\n## A\n')]).toEqual(['a', 'a-1', 'a-2']);
    expect(relativeLinks('[x](a.md#b) `[y](c.md)` [z](https://example.com)\n```\n[w](d.md)\n```\n')).toEqual([{ path: 'a.md', anchor: 'b' }]);
  });

  it('the README is at most 150 lines and keeps the two commands', () => {
    const readme = read('README.md');
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(150);
    expect(readme).toContain('npm install && npm start');
    expect(readme).toMatch(/^npm test\b/m);
  });

  it('docs/errors.md lists every error code of the contract with its HTTP status', () => {
    const text = read('docs/errors.md');
    for (const [code, { status }] of Object.entries(ERRORS)) expect(text, code).toContain(`| \`${code}\` | ${status} |`);
    const listed = [...text.matchAll(/^\| `([a-z_]+)` \| \d{3} \|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual(Object.keys(ERRORS).sort());
  });

  it('docs/api.md gives the number of operations each served OpenAPI document has', () => {
    const text = read('docs/api.md').replace(/\s+/g, ' ');
    const stated = (route: string) => Number(new RegExp(`\`GET ${route.replace(/[/.]/g, '\\$&')}\` \\((\\d+) operations`).exec(text)?.[1]);
    expect(stated('/v1/openapi.json')).toBe(operationCount(getOpenApiDocument()));
    expect(stated('/api/admin/openapi.json')).toBe(operationCount(getAdminOpenApiDocument()));
  });

  it('docs/sdk.md names every stream message type and every outbound notification type of the contract', () => {
    const sdk = read('docs/sdk.md');
    const streamTypes = sdkUpdateSchema.options.map((o) => o.shape.type.value);
    expect(streamTypes).toContain('recommendation');
    for (const type of [...streamTypes, ...NOTIFICATION_TYPES]) expect(sdk, type).toContain(`\`${type}\``);
    // verifyWebhook's list of what a Notification can be names each of them.
    const verify = sdk.split('### Verifying Questline')[1].split('\n## ')[0];
    for (const type of NOTIFICATION_TYPES) expect(verify, type).toContain(`\`${type}\``);
  });

  it('docs/configuration.md names every variable the service reads (lib/config.ts and the rest of its code)', () => {
    const names = serviceVariables();
    for (const name of ['TRUST_PROXY', 'SSE_MAX_STREAMS_PER_USER', 'DATABASE_POOL_MAX', 'REDIS_BREAKER_MS', 'OUTBOUND_WEBHOOK_ALLOW_PRIVATE', 'EVENT_RETENTION_DAYS', 'RELEASE_POLL_MS']) {
      expect(names).toContain(name);
    }
    const table = read('docs/configuration.md').split('## Variables')[1].split('\n## ')[0];
    for (const name of names) expect(table, name).toContain(`\`${name}\``);
  });
});
