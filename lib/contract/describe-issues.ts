// One line that names a zod failure's first issue (and how many more there
// are), used by every validation error message: HTTP parsing and the domain's
// whole-document checks (catalog import, mission verbs) alike; and the one
// notation of a field's path in those messages (`events[1].name`).
import type { z } from 'zod';

/**
 * A path as every error message writes it: object keys joined with `.`,
 * array indexes in brackets (`events[1].name`, `missions[0].reward.amount`),
 * after `prefix` (itself in that notation).
 */
export function fieldPath(prefix: string, segments: readonly PropertyKey[]): string {
  let path = prefix;
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else path += path ? `.${String(segment)}` : String(segment);
  }
  return path;
}

export function describeIssues(error: z.ZodError, prefix = ''): string {
  const first = error.issues[0];
  if (!first) return 'Invalid input';
  const path = fieldPath(prefix, first.path);
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `${path || 'body'}: ${first.message}${more}`;
}
