// The grammar of a mission's criteria filter, checked when a mission is
// authored (API and console alike): payload path (dot notation) → literal
// (equality) or an operator object. Matching events against it is the
// engine's job (lib/missions/filter.ts), which never throws at ingestion.
export const FILTER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'exists'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export type FilterLiteral = string | number | boolean | null;
export type FilterValidation = { ok: true } | { ok: false; message: string };

const OPERATORS: ReadonlySet<string> = new Set(FILTER_OPERATORS);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function isFilterLiteral(value: unknown): value is FilterLiteral {
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
      return isFilterLiteral(value) ? null : 'takes a string, number, boolean or null';
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return isComparable(value) ? null : 'takes a number or a string';
    case 'in':
    case 'nin':
      return Array.isArray(value) && value.every(isFilterLiteral)
        ? null
        : 'takes an array of strings, numbers, booleans or nulls';
    case 'exists':
      return typeof value === 'boolean' ? null : 'takes true or false';
  }
}

/** Authoring-time check of a criteria filter; the message names the path and operator at fault. */
export function validateFilter(filter: unknown): FilterValidation {
  if (!isPlainObject(filter)) return { ok: false, message: 'filter must be an object' };
  for (const [path, condition] of Object.entries(filter)) {
    if (path.split('.').some((segment) => segment === '')) {
      return { ok: false, message: `filter path "${path}" must be dot-separated non-empty segments` };
    }
    if (isFilterLiteral(condition)) continue;
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
