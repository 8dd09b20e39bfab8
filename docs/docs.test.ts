// The repository's documentation stands on its own: it cites no file outside
// the repository, its relative links resolve, and the README's configuration
// table names every variable the configuration reads.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
const docs = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('documentation', () => {
  it.each(docs)('%s cites no document outside the repository', (file) => {
    expect(read(file)).not.toMatch(/service-spec\.md|decisions\.md/);
  });

  it.each(docs)('%s links only to files that exist', (file) => {
    const links = [...read(file).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
    for (const link of links) expect(existsSync(path.resolve(root, path.dirname(file), link)), `${file} → ${link}`).toBe(true);
  });

  it('the README configuration table names every variable lib/config.ts reads', () => {
    const names = new Set([...read('lib/config.ts').matchAll(/nonEmpty\(env, '([A-Z0-9_]+)'\)/g)].map((m) => m[1]));
    expect(names).toContain('TRUST_PROXY');
    expect(names).toContain('SSE_MAX_STREAMS_PER_USER');
    const table = read('README.md').split('## Configuration')[1].split('\n## ')[0];
    for (const name of names) expect(table, name).toContain(`\`${name}\``);
  });
});
