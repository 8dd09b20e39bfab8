// A path whose percent-escapes do not decode (`%ff`, `%C0%AF`, a lone `%`)
// names no resource: 400 validation_error naming the path, with X-Request-Id
// (and CORS under /v1), on every server path: the Node servers and proxy.ts
// in front of the Next.js route files. Dependency-free on purpose: proxy.ts
// loads it without booting anything.
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

export function malformedPathResponse(req: Request, pathname: string, cors: boolean): Response {
  const shown = pathname.length > 200 ? `${pathname.slice(0, 200)}…` : pathname;
  const res = errorResponse(new AppError('validation_error', `path ${shown}: malformed percent-escape`));
  res.headers.set('X-Request-Id', requestIdOf(req));
  return cors ? withCors(res) : res;
}
