// CSRF guard of cookie-authenticated admin writes. SameSite=Lax already keeps
// the session cookie off cross-site POSTs; this also refuses same-site but
// cross-origin pages (another subdomain, another port). A browser always sends
// Origin on a non-GET fetch and cannot forge it, nor the Host it goes to.
import { getConfig } from '@/lib/config';
import { AppError } from '@/lib/errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The host the browser addressed: Host, or behind TRUST_PROXY=<n> the
 * X-Forwarded-Host the outermost trusted proxy wrote (the n-th entry from the
 * right, as for X-Forwarded-For in lib/http/client-ip.ts). Without a trusted
 * proxy the header is the client's own word and is ignored.
 */
export function requestHost(headers: Headers, trustProxy = getConfig().trustProxy): string | null {
  if (trustProxy > 0) {
    const hops = (headers.get('x-forwarded-host') ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean);
    if (hops.length > 0) return hops[Math.max(0, hops.length - trustProxy)];
  }
  return headers.get('host');
}

function originOf(value: string | null): string | null {
  if (!value || value === 'null') return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/** Throws 403 forbidden unless a write comes from a page of this host or a trusted origin. */
export function assertSameOriginWrite(req: Request): void {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return;
  if (req.headers.get('sec-fetch-site') === 'cross-site') {
    throw new AppError('forbidden', 'Cross-site request refused');
  }
  const origin = originOf(req.headers.get('origin')) ?? originOf(req.headers.get('referer'));
  if (!origin) throw new AppError('forbidden', 'A cookie-authenticated write needs an Origin header');
  const host = requestHost(req.headers);
  const config = getConfig();
  const trusted = [config.publicUrl, ...config.trustedOrigins].filter((o): o is string => o !== null).map(originOf);
  if ((host && new URL(origin).host === host) || trusted.includes(origin)) return;
  throw new AppError('forbidden', `Cross-origin request from ${origin} refused`);
}
