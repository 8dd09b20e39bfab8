// The three versioned parts (docs/operations/versioning.md): the server
// (package.json), the TypeScript SDK (lib/sdk/version.ts) and the C# SDK
// (sdk/csharp/src/AssemblyInfo.cs) carry semantic versions, and CHANGELOG.md
// (Keep a Changelog) has a released entry naming each of them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SDK_VERSION } from '@/lib/sdk/version';

const root = path.resolve(__dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?$/;

const server = (JSON.parse(read('package.json')) as { version: string }).version;
const assembly = read('sdk/csharp/src/AssemblyInfo.cs');
const csharp = /AssemblyInformationalVersion\("([^"]+)"\)/.exec(assembly)?.[1] ?? '';
const changelog = read('CHANGELOG.md');
/** The released entries: `## [x.y.z] - YYYY-MM-DD` and the text under each. */
const releases = [...changelog.matchAll(/^## \[([^\]]+)\] - (\d{4}-\d{2}-\d{2})$/gm)].map((m, i, all) => ({
  version: m[1],
  text: changelog.slice(m.index, all[i + 1]?.index ?? changelog.length),
}));

describe('versions and the changelog', () => {
  it('the server, the TypeScript SDK and the C# SDK carry semantic versions', () => {
    expect(server).toMatch(SEMVER);
    expect(SDK_VERSION).toMatch(SEMVER);
    expect(csharp).toMatch(SEMVER);
    // AssemblyVersion is the informational version with a fourth part of 0 (.NET's four-part form).
    expect(/AssemblyVersion\("([^"]+)"\)/.exec(assembly)?.[1]).toBe(`${csharp.replace(/-.*$/, '')}.0`);
  });

  it('CHANGELOG.md keeps an Unreleased section above released entries, newest first', () => {
    expect(changelog).toMatch(/^## \[Unreleased\]$/m);
    expect(changelog.indexOf('## [Unreleased]')).toBeLessThan(changelog.indexOf(`## [${releases[0]?.version}]`));
    const versions = releases.map((r) => r.version);
    for (const v of versions) expect(v).toMatch(SEMVER);
    const order = (v: string) => v.split(/[.-]/).slice(0, 3).map(Number);
    const sorted = [...versions].sort((a, b) => {
      const [x, y] = [order(a), order(b)];
      return y[0] - x[0] || y[1] - x[1] || y[2] - x[2];
    });
    expect(versions).toEqual(sorted);
  });

  it('each part’s current version is named in a released entry of the changelog', () => {
    const named = (part: string, version: string) =>
      releases.some((r) => new RegExp(`${part} ${version.replace(/\./g, '\\.')}\\b`).test(r.text.replace(/\*\*/g, '')));
    expect(named('Server', server) || named('server', server), `server ${server}`).toBe(true);
    expect(named('TypeScript SDK', SDK_VERSION), `TypeScript SDK ${SDK_VERSION}`).toBe(true);
    expect(named('C# SDK', csharp), `C# SDK ${csharp}`).toBe(true);
  });
});
