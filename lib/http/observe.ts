// One access-log line and the request metrics for every answer of the route
// table, under `npm start` and under the Next.js route files alike: request
// id, app, route pattern, method, status, duration. The URL is logged with
// its secrets replaced (lib/log.ts), never as the client sent it.
import { logger, redactText } from '@/lib/log';
import { metrics } from '@/lib/metrics';
import { processWide } from '@/lib/process-wide';
import type { Handler } from './handler';

// Process-wide: the wrapper and the handler may come from different Next.js chunks.
const appOf = processWide('http.request-app', () => new WeakMap<Request, string>());

/** Records which app a request acted for (its token's, or the admin path's), for the access log. */
export function noteApp(req: Request, appId: string): void {
  appOf.set(req, appId);
}

/** The path and query of a URL, query secrets replaced. */
export function loggableUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return redactText(parsed.pathname + parsed.search);
  } catch {
    return redactText(url);
  }
}

/** `handler` with its answer counted (metrics) and logged (info level) under `route`. */
export function observe(route: string, handler: Handler): Handler {
  return async (req, ctx) => {
    const started = performance.now();
    const response = await handler(req, ctx);
    const seconds = (performance.now() - started) / 1000;
    const method = req.method.toUpperCase();
    const m = metrics();
    m.requests.inc({ route, method, status: String(response.status) });
    m.duration.observe({ route, method }, seconds);
    const log = logger();
    if (log.isLevelEnabled('info')) {
      log.info(
        {
          requestId: response.headers.get('x-request-id'),
          app: appOf.get(req) ?? null,
          route,
          method,
          url: loggableUrl(req.url),
          status: response.status,
          durationMs: Math.round(seconds * 10_000) / 10,
        },
        'request',
      );
    }
    return response;
  };
}
