'use client';

// The console's editors work in the app's draft (docs/console.md "How the
// editors relate to the draft"): the draft as a query, one item written,
// removed or reverted at a time (PUT, DELETE …/draft/<collection>/:id, POST
// …/revert; the server starts the draft from the live catalog when there is
// none), the per-row badge of a draft change and the banner that links to the
// Draft page. Nothing here writes the live catalog.
import * as React from 'react';
import Link from 'next/link';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { GitPullRequestDraftIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ApiError, adminFetch, appPath } from '@/components/console/api';
import type { CatalogChange, Draft, DraftCollection } from '@/lib/contract/release';

/** The same key as the Draft page's: a write here refreshes it, and the other way round. */
export const draftQueryKey = (appId: string) => ['admin', 'apps', appId, 'draft'] as const;

/** The app's draft, or null when it has none. */
export function useDraft(appId: string | undefined) {
  return useQuery({
    queryKey: draftQueryKey(appId ?? ''),
    queryFn: () => adminFetch<Draft>(appPath(appId!, 'draft')).catch((err: unknown) => (err instanceof ApiError && err.code === 'draft_not_found' ? null : Promise.reject(err))),
    enabled: !!appId,
  });
}

/** Writes of one draft item; each answers the draft and refreshes every screen reading it. */
export function useDraftItems(appId: string | undefined) {
  const queryClient = useQueryClient();
  return React.useMemo(() => {
    const done = (draft: Draft) => {
      if (appId) {
        queryClient.setQueryData(draftQueryKey(appId), draft);
        void queryClient.invalidateQueries({ queryKey: ['admin', 'apps', appId] });
      }
      return draft;
    };
    const path = (collection: DraftCollection, id: string) => appPath(appId!, 'draft', collection, id);
    return {
      put: (collection: DraftCollection, id: string, item: object) => adminFetch<Draft>(path(collection, id), { method: 'PUT', body: item }).then(done),
      remove: (collection: DraftCollection, id: string) => adminFetch<Draft>(path(collection, id), { method: 'DELETE' }).then(done),
      revert: (collection: DraftCollection, id: string) =>
        adminFetch<{ draft: Draft; restored: 'live' | 'removed' }>(`${path(collection, id)}/revert`, { method: 'POST' }).then((r) => ({ ...r, draft: done(r.draft) })),
    };
  }, [appId, queryClient]);
}

const CHANGE_LABELS: Record<CatalogChange['change'], { label: string; variant: 'success' | 'warning' | 'destructive' }> = {
  added: { label: 'Added in draft', variant: 'success' },
  changed: { label: 'Changed in draft', variant: 'warning' },
  removed: { label: 'Removed in draft', variant: 'destructive' },
};

/** The draft's change of one item, as a lookup. */
export function draftChangeOf(draft: Draft | null | undefined, kind: CatalogChange['kind'], id: string): CatalogChange['change'] | null {
  return draft?.changes.find((c) => c.kind === kind && c.id === id)?.change ?? null;
}

export function DraftChangeBadge({ change }: { change: CatalogChange['change'] | null }) {
  if (!change) return null;
  const { label, variant } = CHANGE_LABELS[change];
  return <Badge variant={variant}>{label}</Badge>;
}

/** "N unpublished changes — Review & publish" when the app's draft differs from live. */
export function DraftBanner({ draft, href }: { draft: Draft | null | undefined; href: string }) {
  const n = draft?.changes.length ?? 0;
  if (!draft || n === 0) return null;
  return (
    <div role="status" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-warning/40 bg-warning/8 px-4 py-3 text-sm">
      <p className="flex items-center gap-2">
        <GitPullRequestDraftIcon aria-hidden className="size-4 text-warning" />
        <span>
          <strong>{n === 1 ? '1 unpublished change' : `${n} unpublished changes`}</strong> in the draft. Players see the live catalog until it is published.
        </span>
      </p>
      <Button asChild size="sm" variant="outline">
        <Link href={href}>Review &amp; publish</Link>
      </Button>
    </div>
  );
}
