'use client';

// The Inspector's events past the inspection's newest 50, and the events of
// one name or time range: pages of GET …/users/:userId/events, newest first.
// Unfiltered, the older pages continue the live list from the inspection's
// eventsNextCursor (the newest events stay live); filtered, the list is the
// endpoint's answer alone, page by page (not live).
import * as React from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { adminFetch } from '@/components/console/api';
import type { InspectedEventPage, Inspection } from '@/lib/contract/inspector';

type Target = { appId: string; userId: string };
type InspectedEvent = Inspection['events'][number];

/** The applied filter: an event name and a time range of the events' timestamps (unix ms; `to` excluded). */
export interface EventFilter {
  name: string;
  from: number | null;
  to: number | null;
}

export const NO_FILTER: EventFilter = { name: '', from: null, to: null };
export const isFiltered = (f: EventFilter) => f.name !== '' || f.from !== null || f.to !== null;

const PAGE = 50;

function eventsPath(t: Target, filter: EventFilter, before: string | null): string {
  const query = new URLSearchParams({ limit: String(PAGE) });
  if (filter.name) query.set('name', filter.name);
  if (filter.from !== null) query.set('from', String(filter.from));
  if (filter.to !== null) query.set('to', String(filter.to));
  if (before) query.set('before', before);
  return `/api/admin/apps/${encodeURIComponent(t.appId)}/users/${encodeURIComponent(t.userId)}/events?${query}`;
}

/** Each event once, in the API's order: event time, then arrival, newest first. */
function ordered(events: InspectedEvent[]): InspectedEvent[] {
  const byId = new Map(events.map((e) => [e.id, e]));
  return [...byId.values()].sort((a, b) => b.timestamp - a.timestamp || b.receivedAt - a.receivedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

export function useEventPages(target: Target, data: Inspection, filter: EventFilter) {
  const filtered = isFiltered(filter);
  // Unfiltered: where the older pages start (the inspection's cursor when first asked for), and the
  // newest events as they were then, so that events pushed out of the live 50 since stay listed.
  const [older, setOlder] = React.useState<{ start: string; shown: InspectedEvent[] } | null>(null);
  const fetchPage = (f: EventFilter) => ({ pageParam }: { pageParam: string | null }) => adminFetch<InspectedEventPage>(eventsPath(target, f, pageParam));
  const olderPages = useInfiniteQuery({
    queryKey: ['admin', 'user-events', target.appId, target.userId, 'older', older?.start ?? null],
    queryFn: fetchPage(NO_FILTER),
    initialPageParam: older?.start ?? null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: !filtered && older !== null,
  });
  const filteredPages = useInfiniteQuery({
    queryKey: ['admin', 'user-events', target.appId, target.userId, 'filtered', filter],
    queryFn: fetchPage(filter),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: filtered,
  });
  if (filtered) {
    return {
      events: filteredPages.data?.pages.flatMap((p) => p.events) ?? [],
      loading: filteredPages.isPending,
      error: filteredPages.error,
      hasOlder: filteredPages.hasNextPage,
      loadingOlder: filteredPages.isFetchingNextPage,
      loadOlder: () => void filteredPages.fetchNextPage(),
    };
  }
  return {
    events: older ? ordered([...data.events, ...older.shown, ...(olderPages.data?.pages.flatMap((p) => p.events) ?? [])]) : data.events,
    loading: false,
    error: olderPages.error,
    hasOlder: older ? olderPages.isPending || olderPages.hasNextPage : data.eventsNextCursor !== null,
    loadingOlder: older !== null && (olderPages.isPending || olderPages.isFetchingNextPage),
    loadOlder: () => {
      if (!older) {
        if (data.eventsNextCursor) setOlder({ start: data.eventsNextCursor, shown: data.events });
      } else void olderPages.fetchNextPage();
    },
  };
}
