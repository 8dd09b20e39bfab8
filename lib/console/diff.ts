// Before/after of an audit entry as rows: one per leaf path (objects walked,
// arrays of scalars kept whole so a list reads as one value), each marked
// added, removed, changed or unchanged.
export type DiffKind = 'added' | 'removed' | 'changed' | 'unchanged';

export interface DiffRow {
  path: string;
  kind: DiffKind;
  before?: unknown;
  after?: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function flatten(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (isObject(value) && (Object.keys(value).length > 0 || prefix === '')) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
    return;
  }
  if (Array.isArray(value) && value.some((v) => typeof v === 'object' && v !== null)) {
    value.forEach((child, i) => flatten(child, `${prefix}[${i}]`, out));
    return;
  }
  out.set(prefix || '(value)', value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function diffRows(before: unknown, after: unknown): DiffRow[] {
  const b = new Map<string, unknown>();
  const a = new Map<string, unknown>();
  if (before !== null && before !== undefined) flatten(before, '', b);
  if (after !== null && after !== undefined) flatten(after, '', a);
  const paths = [...new Set([...b.keys(), ...a.keys()])];
  return paths.map((path): DiffRow => {
    if (!b.has(path)) return { path, kind: 'added', after: a.get(path) };
    if (!a.has(path)) return { path, kind: 'removed', before: b.get(path) };
    const [x, y] = [b.get(path), a.get(path)];
    return { path, kind: same(x, y) ? 'unchanged' : 'changed', before: x, after: y };
  });
}

export function formatValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
