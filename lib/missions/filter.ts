// Mission criteria filters (docs/api.md, "Mission rules"): payload path →
// literal (equality) or operator object. Every key must match (AND); several
// operators under one key must all match too.
//
// Semantics chosen deliberately (they are part of the contract):
// - A path walks own properties of plain objects only; arrays and primitives
//   stop the walk. A path that cannot be walked is a missing field (undefined).
//   Own properties only, so `constructor` or `__proto__` never resolve to
//   Object.prototype members.
// - Missing field: equality, `eq`, `in` and the comparisons fail; `ne` and
//   `nin` match (a missing value is not equal to any literal); `exists: false`
//   matches and `exists: true` fails. null is a present value.
// - Equality is strict (===): 1 does not equal "1"; an object or array in the
//   payload never equals a literal.
// - `gt gte lt lte` compare only a number with a number or a string with a
//   string (code-unit order); any other pairing is false.
// - validateFilter (lib/contract/filter.ts, part of the mission schema) rejects
//   anything else when the mission is authored.
//   matchesFilter never throws at ingestion: a condition it cannot understand
//   (a filter stored before validation) does not match, so it fails closed.
import { isFilterLiteral as isLiteral, isPlainObject } from '@/lib/contract/filter';
import type { MissionFilter } from '@/lib/contract/mission';

export { validateFilter } from '@/lib/contract/filter';

/** Value at a dot path, walking own properties of plain objects; undefined when missing. */
export function readPath(payload: Record<string, unknown>, path: string): unknown {
  let current: unknown = payload;
  for (const segment of path.split('.')) {
    if (!isPlainObject(current) || !Object.hasOwn(current, segment)) return undefined;
    current = current[segment];
  }
  return current;
}

function sign<T extends number | string>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sign of actual − expected for two numbers or two strings; null for any other pairing. */
function order(actual: unknown, expected: unknown): number | null {
  if (typeof actual === 'number' && typeof expected === 'number') {
    return Number.isNaN(actual) || Number.isNaN(expected) ? null : sign(actual, expected);
  }
  if (typeof actual === 'string' && typeof expected === 'string') return sign(actual, expected);
  return null;
}

function compare(actual: unknown, expected: unknown, test: (sign: number) => boolean): boolean {
  const result = order(actual, expected);
  return result !== null && test(result);
}

function matchesOperator(op: string, operand: unknown, actual: unknown): boolean {
  switch (op) {
    case 'eq':
      return isLiteral(operand) && actual === operand;
    case 'ne':
      return isLiteral(operand) && actual !== operand;
    case 'gt':
      return compare(actual, operand, (o) => o > 0);
    case 'gte':
      return compare(actual, operand, (o) => o >= 0);
    case 'lt':
      return compare(actual, operand, (o) => o < 0);
    case 'lte':
      return compare(actual, operand, (o) => o <= 0);
    case 'in':
      return actual !== undefined && Array.isArray(operand) && operand.includes(actual);
    case 'nin':
      return Array.isArray(operand) && !operand.includes(actual);
    case 'exists':
      return typeof operand === 'boolean' && (actual !== undefined) === operand;
    default:
      return false; // unknown operator: fail closed rather than throw
  }
}

/** The first filter condition the payload fails: its key, the condition and the value seen there (undefined when missing). */
export interface FilterMismatch {
  key: string;
  condition: unknown;
  /** The payload's value at `key`; undefined when the field is missing. */
  seen: unknown;
}

/** The first condition of the filter (in its key order) the payload does not satisfy; null when all match or there is no filter. */
export function firstFilterMismatch(filter: MissionFilter | undefined, payload: Record<string, unknown>): FilterMismatch | null {
  if (filter === undefined) return null;
  for (const [path, condition] of Object.entries(filter)) {
    const actual = readPath(payload, path);
    if (!matchesCondition(condition, actual)) return { key: path, condition, seen: actual };
  }
  return null;
}

function matchesCondition(condition: unknown, actual: unknown): boolean {
  if (isLiteral(condition)) return actual === condition;
  if (!isPlainObject(condition)) return false;
  const ops = Object.entries(condition);
  return ops.length > 0 && ops.every(([op, operand]) => matchesOperator(op, operand, actual));
}

/** True when the payload satisfies every condition of the filter (no filter: always true). */
export function matchesFilter(filter: MissionFilter | undefined, payload: Record<string, unknown>): boolean {
  return firstFilterMismatch(filter, payload) === null;
}
