// The repository's documentation stands on its own: it cites no file outside
// the repository, its relative links resolve, and the README's configuration
// table names every variable the configuration reads.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_TYPES } from '@/lib/contract/outbound';
import { sdkUpdateSchema } from '@/lib/contract/updates';
import { getAdminOpenApiDocument } from '@/lib/http/admin/openapi';
import { getOpenApiDocument } from '@/lib/http/v1/openapi';

const root = path.resolve(__dirname, '..');
const docs = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
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

  it.each(docs)('%s links only to files that exist', (file) => {
    const links = [...read(file).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
    for (const link of links) expect(existsSync(path.resolve(root, path.dirname(file), link)), `${file} → ${link}`).toBe(true);
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

  it('the README configuration table names every variable the service reads (lib/config.ts and the rest of its code)', () => {
    const names = serviceVariables();
    for (const name of ['TRUST_PROXY', 'SSE_MAX_STREAMS_PER_USER', 'DATABASE_POOL_MAX', 'REDIS_BREAKER_MS', 'OUTBOUND_WEBHOOK_ALLOW_PRIVATE', 'EVENT_RETENTION_DAYS', 'RELEASE_POLL_MS']) {
      expect(names).toContain(name);
    }
    const table = read('README.md').split('## Configuration')[1].split('\n## ')[0];
    for (const name of names) expect(table, name).toContain(`\`${name}\``);
  });
});
