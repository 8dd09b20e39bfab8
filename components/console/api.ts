// The console's client for /api/admin: same-origin fetch with the session
// cookie, JSON in and out, errors as ApiError carrying the API's code and
// message. React Query calls these; no console component reaches the database.
import { queryOptions } from '@tanstack/react-query';
import type { CampaignRecord } from '@/lib/contract/catalog-admin';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export async function adminFetch<T>(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
  const res = await fetch(path, {
    method: init.method ?? 'GET',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    cache: 'no-store',
  });
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // A proxy's HTML error page, say: reported below by status.
  }
  if (!res.ok) {
    const { error, message } = (body ?? {}) as { error?: string; message?: string };
    throw new ApiError(res.status, error ?? 'http_error', message ?? `The server answered ${res.status}`);
  }
  return body as T;
}

/** A message for a toast or an inline alert. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return 'Something went wrong';
}

/**
 * React Query keys of the admin API, in one place so screens invalidate each
 * other's data. A key names one shape of data: every query of a key caches
 * what the others read back, so two screens that fetch the same resource share
 * one query function too (see campaignsQuery).
 */
export const queryKeys = {
  me: ['admin', 'me'] as const,
  apps: ['admin', 'apps'] as const,
  staff: ['admin', 'staff'] as const,
  catalog: (appId: string) => ['admin', 'apps', appId, 'catalog'] as const,
  analytics: (appId: string, range: unknown) => ['admin', 'apps', appId, 'analytics', range] as const,
  /** Every mission query of an app (lists and single missions): invalidate this after a write. */
  missions: (appId: string) => ['admin', 'apps', appId, 'missions'] as const,
  missionList: (appId: string, query: string) => ['admin', 'apps', appId, 'missions', 'list', query] as const,
  mission: (appId: string, id: string) => ['admin', 'apps', appId, 'missions', 'one', id] as const,
  eventNames: (appId: string) => ['admin', 'apps', appId, 'event-names'] as const,
  payloadFields: (appId: string, name: string) => ['admin', 'apps', appId, 'event-payload-fields', name] as const,
  audit: ['admin', 'audit'] as const,
  themes: (appId: string) => ['admin', 'apps', appId, 'themes'] as const,
  campaigns: (appId: string) => ['admin', 'apps', appId, 'campaigns'] as const,
};

/**
 * The app's campaigns (GET …/campaigns), the list itself: the Campaigns screen
 * and the dashboard's budgets card both read it. They once cached two shapes
 * under this key (the answer object and its array), so the Campaigns screen
 * opened after the dashboard got an object where it mapped an array (issue 37).
 */
export const campaignsQuery = (appId: string) =>
  queryOptions({
    queryKey: queryKeys.campaigns(appId),
    queryFn: () => adminFetch<{ campaigns: CampaignRecord[] }>(appPath(appId, 'campaigns')).then((r) => r.campaigns),
  });

/** The path of an app's admin resource, its ids encoded: appPath('demo', 'themes', 'night'). */
export function appPath(appId: string, ...segments: string[]): string {
  return ['/api/admin/apps', appId, ...segments].map((s, i) => (i === 0 ? s : encodeURIComponent(s))).join('/');
}
