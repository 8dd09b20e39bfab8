// Test support: an HTTP request from a chosen loopback source address
// (127.0.0.1, 127.0.0.2, …: the whole 127/8 is the loopback interface), so
// tests can play two clients with different socket addresses.
import { request } from 'node:http';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export function httpFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; raw?: string } = {},
): Promise<Answer> {
  const target = new URL(url);
  // `raw`: the body as given, with whatever Content-Type the headers say (none added).
  const payload = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: init.method ?? (payload ? 'POST' : 'GET'),
        localAddress,
        // A fresh connection each time, so the source address is really this one.
        agent: false,
        headers: { ...(payload && init.raw === undefined ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The token endpoint's answer for (app, secret) from a source address, with optional X-Forwarded-For. */
export async function tokenFrom(baseUrl: string, localAddress: string, app: { appId: string; appSecret: string }, forwardedFor?: string): Promise<number> {
  const res = await httpFrom(localAddress, `${baseUrl}/v1/auth/token`, {
    body: { appId: app.appId, appSecret: app.appSecret, userId: 'u' },
    headers: forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {},
  });
  return res.status;
}
