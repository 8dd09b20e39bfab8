'use client';

import * as React from 'react';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TooltipProvider } from '@/components/ui/tooltip';
import { Toaster } from '@/components/ui/sonner';
import { ApiError } from './api';
import { ThemeProvider } from './theme';

function signInAgain(): void {
  const next = window.location.pathname + window.location.search;
  // A full page load on purpose: nothing of the ended session (query cache, staff) survives into the sign-in page.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  window.location.assign(`/admin/sign-in?next=${encodeURIComponent(next)}`);
}

function makeQueryClient(): QueryClient {
  return new QueryClient({
    // A session that ended (signed out elsewhere, removed, expired) sends the person to sign in again.
    queryCache: new QueryCache({ onError: (err) => err instanceof ApiError && err.status === 401 && signInAgain() }),
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: true,
        // Client errors (4xx) will not fix themselves; server hiccups get two more tries.
        retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
      },
    },
  });
}

/** Everything the console's client components share: theme, server state, tooltips, toasts. */
export function ConsoleProviders({ children }: { children: React.ReactNode }) {
  const [client] = React.useState(makeQueryClient);
  return (
    <ThemeProvider>
      <QueryClientProvider client={client}>
        <TooltipProvider delayDuration={300}>
          {children}
          <Toaster />
        </TooltipProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
