'use client';

// The app the per-app screens show: `?app=` in the URL (links and reloads keep
// it), else the last choice (localStorage), else the first app.
import * as React from 'react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import type { PublicApp } from '@/lib/contract/app';
import { adminFetch, queryKeys } from './api';
import { localStorageValue } from './browser-store';

// The last app chosen here (read once, shared by every screen of the page).
const rememberedApp = localStorageValue<string | null>('questline-app', (stored) => stored, null);

export function useApps() {
  return useQuery({ queryKey: queryKeys.apps, queryFn: () => adminFetch<{ apps: PublicApp[] }>('/api/admin/apps').then((r) => r.apps) });
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
  const remembered = rememberedApp.useValue();

  const wanted = params.get('app') ?? remembered;
  const app = apps?.find((a) => a.id === wanted) ?? apps?.[0] ?? null;

  const selectApp = React.useCallback(
    (appId: string) => {
      // Without storage the choice lasts for the page, and the URL carries it.
      rememberedApp.set(appId);
      const next = new URLSearchParams(params.toString());
      next.set('app', appId);
      router.replace(`${pathname}?${next.toString()}`);
    },
    [params, pathname, router],
  );

  const withApp = React.useCallback((href: string) => (app ? `${href}?app=${encodeURIComponent(app.id)}` : href), [app]);
  return { apps, app, isLoading, selectApp, withApp };
}
