// No circles between folders, and no new circle between files: the static
// imports (`import … from`, `export … from`, type-only ones too) of every
// source file under lib/, db/, app/ and components/ (tests left out) form a
// graph; its strongly connected components are the circles. Between folders
// (lib/<folder>, a file directly under lib/, db, app, components) there must
// be none. Between files, the circles still inside one folder are listed in
// KNOWN_FILE_CIRCLES: a new one fails, and so does a listed one that is gone
// (take it off the list). A dynamic import() is not an edge: it loads later,
// on purpose. Break a circle by moving the shared piece down a layer
// (docs/architecture.md, "No circles").
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
const ROOTS = ['lib', 'db', 'app', 'components'];
const SKIP = new Set(['node_modules', '.next', 'migrations']);
const TEST = /\.(test|contract)\.tsx?$|\.d\.ts$/;

/** File circles inside one folder, each sorted; this list only shrinks. */
const KNOWN_FILE_CIRCLES = [
  ['db/client.ts', 'db/prepared.ts'],
  ['lib/http/handler.ts', 'lib/http/observe.ts'],
  ['lib/updates/log-ids.ts', 'lib/updates/log-memory.ts', 'lib/updates/log-redis.ts', 'lib/updates/log.ts'],
  ['lib/updates/publish.ts', 'lib/updates/resync.ts'],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : sourceFiles(rel);
    return /\.tsx?$/.test(entry.name) && !TEST.test(entry.name) ? [rel] : [];
  });
}

function importGraph(): Map<string, string[]> {
  const files = ROOTS.flatMap(sourceFiles);
  const known = new Set(files);
  const resolve = (from: string, spec: string): string | null => {
    const base = spec.startsWith('@/') ? spec.slice(2) : spec.startsWith('.') ? path.posix.join(path.posix.dirname(from), spec) : null;
    if (base === null) return null;
    return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((f) => known.has(f)) ?? null;
  };
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, false);
    const targets = source.statements.flatMap((s) =>
      (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier)
        ? [resolve(file, s.moduleSpecifier.text)].filter((f): f is string => f !== null)
        : [],
    );
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components of more than one node (Tarjan), each sorted, sorted by their first node. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/** lib/<folder>, a file directly under lib/, or the top folder. */
function folderOf(file: string): string {
  const parts = file.split('/');
  return parts[0] === 'lib' && parts.length > 2 ? `lib/${parts[1]}` : parts[0] === 'lib' ? file : parts[0];
}

function folderGraph(files: Map<string, string[]>): { graph: Map<string, string[]>; why: Map<string, string[]> } {
  const graph = new Map<string, string[]>();
  const why = new Map<string, string[]>();
  for (const [file, targets] of files) {
    const from = folderOf(file);
    for (const target of targets) {
      const to = folderOf(target);
      if (from === to) continue;
      graph.set(from, [...new Set([...(graph.get(from) ?? []), to])]);
      why.set(`${from} -> ${to}`, [...(why.get(`${from} -> ${to}`) ?? []), `${file} -> ${target}`]);
    }
  }
  return { graph, why };
}

describe('import circles', () => {
  const files = importGraph();

  it('reads the imports it means to (sanity: a known edge of each kind is there)', () => {
    expect(files.get('lib/outbound/worker.ts')).toContain('lib/signature.ts'); // '@/…'
    expect(files.get('lib/catalog/record-release.ts')).toContain('lib/catalog/catalog-document.ts'); // './…'
    expect(files.get('lib/missions/schema.ts')).toContain('lib/progress/record.ts'); // export type … from
  });

  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(circles(graph)).toEqual([['a', 'b', 'c']]);
    expect(circles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('has no circle between folders', () => {
    const { graph, why } = folderGraph(files);
    const found = circles(graph).map((circle) => {
      const inside = new Set(circle);
      const ties = [...why].filter(([edge]) => edge.split(' -> ').every((f) => inside.has(f))).map(([edge, by]) => `${edge}: ${by.join(', ')}`);
      return `${circle.join(' ↔ ')}\n  ${ties.join('\n  ')}`;
    });
    expect(found, found.join('\n')).toEqual([]);
  });

  it('has no file circle but the known ones inside one folder', () => {
    expect(circles(files)).toEqual(KNOWN_FILE_CIRCLES);
  });
});
