// One line that names a zod failure's first issue (and how many more there
// are), used by every validation error message: HTTP parsing and the domain's
// whole-document checks (catalog import, mission verbs) alike.
import type { z } from 'zod';

export function describeIssues(error: z.ZodError, prefix = ''): string {
  const first = error.issues[0];
  if (!first) return 'Invalid input';
  const path = [prefix, ...first.path.map(String)].filter(Boolean).join('.');
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `${path || 'body'}: ${first.message}${more}`;
}
