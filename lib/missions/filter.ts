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
// - validateFilter rejects anything else when the mission is authored.
//   matchesFilter never throws at ingestion: a condition it cannot understand
//   (a filter stored before validation) does not match, so it fails closed.
import { FILTER_OPERATORS, type FilterOperator, type MissionFilter } from './schema';

type Literal = string | number | boolean | null;
type ValidationResult = { ok: true } | { ok: false; message: string };

const OPERATORS: ReadonlySet<string> = new Set(FILTER_OPERATORS);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isLiteral(value: unknown): value is Literal {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function isComparable(value: unknown): value is number | string {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** Why `value` is not a valid operand of `op`, or null when it is. */
function operandError(op: FilterOperator, value: unknown): string | null {
  switch (op) {
    case 'eq':
    case 'ne':
      return isLiteral(value) ? null : 'takes a string, number, boolean or null';
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return isComparable(value) ? null : 'takes a number or a string';
    case 'in':
    case 'nin':
      return Array.isArray(value) && value.every(isLiteral)
        ? null
        : 'takes an array of strings, numbers, booleans or nulls';
    case 'exists':
      return typeof value === 'boolean' ? null : 'takes true or false';
  }
}

/** Authoring-time check of a criteria filter; the message names the path and operator at fault. */
export function validateFilter(filter: unknown): ValidationResult {
  if (!isPlainObject(filter)) return { ok: false, message: 'filter must be an object' };
  for (const [path, condition] of Object.entries(filter)) {
    if (path.split('.').some((segment) => segment === '')) {
      return { ok: false, message: `filter path "${path}" must be dot-separated non-empty segments` };
    }
    if (isLiteral(condition)) continue;
    if (!isPlainObject(condition)) {
      return {
        ok: false,
        message: `filter "${path}": value must be a string, number, boolean, null or an operator object`,
      };
    }
    const ops = Object.entries(condition);
    if (ops.length === 0) {
      return { ok: false, message: `filter "${path}": operator object must not be empty` };
    }
    for (const [op, operand] of ops) {
      if (!OPERATORS.has(op)) {
        return {
          ok: false,
          message: `filter "${path}": unknown operator "${op}" (allowed: ${FILTER_OPERATORS.join(', ')})`,
        };
      }
      const error = operandError(op as FilterOperator, operand);
      if (error) return { ok: false, message: `filter "${path}": operator "${op}" ${error}` };
    }
  }
  return { ok: true };
}

/** Value at a dot path, walking own properties of plain objects; undefined when missing. */
function readPath(payload: Record<string, unknown>, path: string): unknown {
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

/** True when the payload satisfies every condition of the filter (no filter: always true). */
export function matchesFilter(filter: MissionFilter | undefined, payload: Record<string, unknown>): boolean {
  if (filter === undefined) return true;
  return Object.entries(filter).every(([path, condition]) => {
    const actual = readPath(payload, path);
    if (isLiteral(condition)) return actual === condition;
    if (!isPlainObject(condition)) return false;
    const ops = Object.entries(condition);
    return ops.length > 0 && ops.every(([op, operand]) => matchesOperator(op, operand, actual));
  });
}
