import { randomUUID } from 'node:crypto';

const SAFE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Keeps a caller's well-formed X-Request-Id (for tracing across services), otherwise makes one. */
export function requestIdOf(req: Request): string {
  const given = req.headers.get('x-request-id');
  return given && SAFE_ID.test(given) ? given : randomUUID();
}
