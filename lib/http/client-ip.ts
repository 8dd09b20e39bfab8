// The caller's address for per-IP limits (the token endpoint's failure guard).
//
// By default it is the TCP peer: the socket's remote address, which our Node
// servers (lib/http/node-server.ts, the custom server of `npm start`) pass to
// the handlers in the route context, out of any client's reach.
// X-Forwarded-For is written by whoever sent the request, so it is ignored
// unless TRUST_PROXY=<n> says n proxies stand in front: each appends the
// address it received the request from, so the n-th entry from the right was
// written by the outermost trusted proxy and is the client. Entries further
// left are whatever the client sent. A header with fewer than n entries gives
// its leftmost one.
//
// The Next.js route files (next start, serverless) get no socket address: there,
// without TRUST_PROXY, the address is unknown and the guard counts per app.
export const UNKNOWN_CLIENT = 'unknown';

export function clientIp(req: Request, socketAddress: string | undefined, trustProxy: number): string {
  return clientAddress(req.headers.get('x-forwarded-for'), socketAddress, trustProxy);
}

/** The same from the raw X-Forwarded-For value (Node's IncomingMessage joins repeated headers with ", "). */
export function clientAddress(forwardedFor: string | null | undefined, socketAddress: string | undefined, trustProxy: number): string {
  if (trustProxy > 0) {
    const hops = (forwardedFor ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean);
    if (hops.length > 0) return normalizeAddress(hops[Math.max(0, hops.length - trustProxy)]);
  }
  return socketAddress ? normalizeAddress(socketAddress) : UNKNOWN_CLIENT;
}

/** `::ffff:127.0.0.1` (an IPv4 client of a dual-stack socket) and `127.0.0.1` are one client. */
function normalizeAddress(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
