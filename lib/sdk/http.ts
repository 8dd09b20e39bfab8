// The request core shared by the methods and the stream: base URL, token,
// fetch, JSON in and out, typed errors.
import { errorFromResponse, NetworkError, UnauthorizedError } from './errors';
import type { FetchLike, Replay, TokenSource } from './types';

export interface CoreOptions {
  baseUrl: string;
  token?: string;
  getToken?: TokenSource;
  fetch?: FetchLike;
}

interface CallOptions {
  method?: 'GET' | 'POST';
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** false for the token endpoint. */
  auth?: boolean;
  signal?: AbortSignal;
}

export interface Core {
  baseUrl: string;
  fetch: FetchLike;
  hasToken: boolean;
  token(): Promise<string>;
  url(path: string, query?: Record<string, string | number | undefined>): string;
  call<T>(path: string, options?: CallOptions): Promise<{ data: T; response: Response }>;
}

export function replayOf(res: Response): Replay {
  const value = res.headers.get('x-idempotent-replay');
  return value === 'hit' || value === 'db-hit' ? value : null;
}

export function createCore(options: CoreOptions): Core {
  if (!options.baseUrl) throw new TypeError('createQuestlineClient: baseUrl is required');
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  // Unbound window.fetch throws "Illegal invocation" in browsers: always call it through globalThis.
  const doFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const source: TokenSource | null = options.getToken ?? (options.token !== undefined ? () => options.token! : null);

  const token = async (): Promise<string> => {
    if (!source) throw new UnauthorizedError({ status: 0, code: 'unauthorized', message: 'No token configured (pass token or getToken)' });
    return source();
  };

  const url = (path: string, query?: Record<string, string | number | undefined>) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
  };

  async function send(path: string, o: CallOptions, bearer: string | null): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json', ...o.headers };
    if (bearer !== null) headers.Authorization = `Bearer ${bearer}`;
    if (o.body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      return await doFetch(url(path, o.query), {
        method: o.method ?? 'GET',
        headers,
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
        signal: o.signal,
      });
    } catch (err) {
      if (o.signal?.aborted) throw err;
      throw new NetworkError({ status: 0, code: 'network_error', message: `Network error on ${o.method ?? 'GET'} ${path}`, cause: err });
    }
  }

  async function call<T>(path: string, o: CallOptions = {}): Promise<{ data: T; response: Response }> {
    const auth = o.auth ?? true;
    let bearer = auth ? await token() : null;
    let res = await send(path, o, bearer);
    // A 401 means nothing was done: retry once when getToken hands out a different token.
    if (res.status === 401 && auth && options.getToken) {
      const fresh = await token();
      if (fresh !== bearer) {
        await res.body?.cancel().catch(() => undefined);
        bearer = fresh;
        res = await send(path, o, bearer);
      }
    }
    if (!res.ok) throw await errorFromResponse(res);
    return { data: (await res.json()) as T, response: res };
  }

  return { baseUrl, fetch: doFetch, hasToken: source !== null, token, url, call };
}

/** The `sub` claim of a JWT, read without verification (the server verifies). */
export function tokenSubject(token: string): string | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=');
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as { sub?: unknown };
    return typeof claims.sub === 'string' ? claims.sub : null;
  } catch {
    return null;
  }
}
