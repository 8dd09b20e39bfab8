// A path whose percent-escapes do not decode (`%ff`, `%C0%AF`, a lone `%`)
// names no resource: 400 validation_error naming the path, with X-Request-Id
// (and CORS under /v1), on every server path: the Node servers and proxy.ts
// in front of the Next.js route files. So does an API path with a dot
// segment (`.`, `..`, also spelled `%2E`): URL parsing would resolve it and
// answer for another route (`…/users/%2E/export` is `…/users/export`).
// Dependency-free on purpose: proxy.ts loads it without booting anything.
import { AppError } from '@/lib/errors';
import { withCors } from './cors';
import { requestIdOf } from './request-id';
import { errorResponse } from './respond';

/** True when decodeURIComponent refuses the path (malformed or overlong UTF-8, stray `%`). */
export function hasMalformedEscape(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * The path of a request target as the client sent it (origin-form or
 * absolute-form), before any URL parser resolved its dot segments.
 */
export function rawPathOf(target: string): string {
  const path = target.startsWith('/') ? target : (/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/.exec(target)?.[1] ?? '/');
  return path.split(/[?#]/, 1)[0];
}

/** True when a segment of the raw path is `.` or `..` (also as `%2E`, `.%2e`, …). */
export function hasDotSegment(rawPath: string): boolean {
  return rawPath.split('/').some((segment) => DOT_SEGMENT.test(segment));
}

export function malformedPathResponse(req: Request, pathname: string, cors: boolean, problem: 'escape' | 'dot' = 'escape'): Response {
  const shown = pathname.length > 200 ? `${pathname.slice(0, 200)}…` : pathname;
  const why =
    problem === 'escape'
      ? 'malformed percent-escape'
      : 'a `.` or `..` segment names no resource here (a user with such an id: …/users/by-id?userId=…, docs/api.md "Addressing a user")';
  const res = errorResponse(new AppError('validation_error', `path ${shown}: ${why}`));
  res.headers.set('X-Request-Id', requestIdOf(req));
  return cors ? withCors(res) : res;
}
