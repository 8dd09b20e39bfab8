'use client';

// The app the per-app screens show: `?app=` in the URL (links and reloads keep
// it), else the last choice (localStorage), else the first app.
import * as React from 'react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import type { PublicApp } from '@/lib/contract/app';
import { adminFetch, queryKeys } from './api';

const STORAGE_KEY = 'questline-app';

export function useApps() {
  return useQuery({ queryKey: queryKeys.apps, queryFn: () => adminFetch<{ apps: PublicApp[] }>('/api/admin/apps').then((r) => r.apps) });
}

function storedApp(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function useSelectedApp(): {
  apps: PublicApp[] | undefined;
  app: PublicApp | null;
  isLoading: boolean;
  selectApp(appId: string): void;
  /** `href` with the selected app in its query (for per-app links). */
  withApp(href: string): string;
} {
  const { data: apps, isLoading } = useApps();
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const [remembered, setRemembered] = React.useState<string | null>(null);
  React.useEffect(() => setRemembered(storedApp()), []);

  const wanted = params.get('app') ?? remembered;
  const app = apps?.find((a) => a.id === wanted) ?? apps?.[0] ?? null;

  const selectApp = React.useCallback(
    (appId: string) => {
      try {
        localStorage.setItem(STORAGE_KEY, appId);
      } catch {
        // No storage: the URL still carries the choice.
      }
      setRemembered(appId);
      const next = new URLSearchParams(params.toString());
      next.set('app', appId);
      router.replace(`${pathname}?${next.toString()}`);
    },
    [params, pathname, router],
  );

  const withApp = React.useCallback((href: string) => (app ? `${href}?app=${encodeURIComponent(app.id)}` : href), [app]);
  return { apps, app, isLoading, selectApp, withApp };
}
