// CORS for the public /v1 API: any origin, Authorization allowed in preflight.
// Tokens travel in a header (never cookies), so `*` is safe and sufficient.
const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'X-Request-Id, X-Idempotent-Replay, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset',
};

const PREFLIGHT_HEADERS: Record<string, string> = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key, Last-Event-ID, X-Request-Id',
  'Access-Control-Max-Age': '600',
};

export function isPreflight(req: Request): boolean {
  return req.method === 'OPTIONS' && req.headers.has('access-control-request-method');
}

export function preflightResponse(requestId: string): Response {
  return new Response(null, { status: 204, headers: { ...PREFLIGHT_HEADERS, 'X-Request-Id': requestId, Vary: 'Origin' } });
}

export function withCors(res: Response): Response {
  for (const [name, value] of Object.entries(CORS_HEADERS)) res.headers.set(name, value);
  return res;
}
