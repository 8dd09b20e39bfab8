// How the admin API addresses one user. A user id `.` or `..` cannot be a
// path segment: every URL parser on the way (the browser's fetch, Node's,
// Next.js's router, a proxy) resolves it as a dot segment before a handler
// sees it. So a user can also be named in the query, after the fixed segment
// `by-id`: `/api/admin/apps/:appId/users/by-id[/…]?userId=<id>`, for any id
// (docs/api.md, "Addressing a user"). The path form stays for every other id.

/** The path segment that says "the user is named by the `userId` query parameter". */
export const USER_BY_ID_SEGMENT = 'by-id';

/** The ids no path segment can carry. */
export const isDotSegment = (id: string): boolean => id === '.' || id === '..';

/**
 * The admin API path of a user (`rest`: a sub-path such as `/export`), with
 * `query` appended: the path form for every id but `.` and `..`, which take
 * the `by-id?userId=` form.
 */
export function adminUserPath(appId: string, userId: string, rest = '', query: Record<string, string> = {}): string {
  const params = new URLSearchParams(query);
  const dots = isDotSegment(userId);
  if (dots) params.set('userId', userId);
  const qs = params.toString();
  return `/api/admin/apps/${encodeURIComponent(appId)}/users/${dots ? USER_BY_ID_SEGMENT : encodeURIComponent(userId)}${rest}${qs ? `?${qs}` : ''}`;
}
