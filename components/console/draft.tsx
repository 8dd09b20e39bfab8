'use client';

// The console's editors work in the app's draft (docs/console.md "How the
// editors relate to the draft"): the draft as a query, one item written,
// removed or reverted at a time (PUT, DELETE …/draft/<collection>/:id, POST
// …/revert; the server starts the draft from the live catalog when there is
// none), the per-row badge of a draft change and the banner that links to the
// Draft page. Nothing here writes the live catalog.
import * as React from 'react';
import Link from 'next/link';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { GitPullRequestDraftIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { adminFetch, appPath, errorMessage } from '@/components/console/api';
import type { ThemeRecord } from '@/lib/contract/catalog-admin';
import type { CatalogChange, Draft, DraftCampaignDuplicated, DraftCollection } from '@/lib/contract/release';

/** The same key as the Draft page's: a write here refreshes it, and the other way round. */
const draftQueryKey = (appId: string) => ['admin', 'apps', appId, 'draft'] as const;

/**
 * The app's draft, or null when it has none: GET …/draft?allowMissing=true
 * answers 204 then, not 404 (every editing screen reads the draft, and a 404
 * showed as a failed request in the browser's console on each).
 */
export const draftQuery = (appId: string) =>
  queryOptions({
    queryKey: draftQueryKey(appId),
    queryFn: async () => (await adminFetch<Draft | undefined>(`${appPath(appId, 'draft')}?allowMissing=true`)) ?? null,
  });

/** The app's draft, or null when it has none. */
export function useDraft(appId: string | undefined) {
  return useQuery({ ...draftQuery(appId ?? ''), enabled: !!appId });
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
      /** A copy of the campaign and its missions in the draft, with new ids (POST …/draft/campaigns/:id/duplicate). */
      duplicateCampaign: (id: string) =>
        adminFetch<DraftCampaignDuplicated>(`${path('campaigns', id)}/duplicate`, { method: 'POST', body: {} }).then((r) => ({ ...r, draft: done(r.draft) })),
      revert: (collection: DraftCollection, id: string) =>
        adminFetch<{ draft: Draft; restored: 'live' | 'removed' }>(`${path(collection, id)}/revert`, { method: 'POST' }).then((r) => ({ ...r, draft: done(r.draft) })),
    };
  }, [appId, queryClient]);
}

/**
 * A list's Delete and Revert of one draft collection, with their toasts: a
 * delete is undone by putting the row's item back (`itemOf`), a revert says
 * whether the draft holds the live version again or dropped a draft-only item.
 * `noun` and `label` name the row ("Campaign", its title); `kept` says who
 * still sees a deleted item until the draft is published.
 */
export function useDraftRowActions<R extends { id: string }>(
  items: ReturnType<typeof useDraftItems>,
  collection: DraftCollection,
  row: { noun: string; label(r: R): string; itemOf(r: R): object; kept: string },
) {
  const remove = useMutation({
    mutationFn: (r: R) => items.remove(collection, r.id),
    onSuccess: (_, r) => {
      const undo = () => void items.put(collection, r.id, row.itemOf(r)).then(() => toast.success('Undone in the draft'), (err: unknown) => toast.error(errorMessage(err)));
      toast.success(`${row.noun} “${row.label(r)}” deleted in the draft`, { description: row.kept, action: { label: 'Undo', onClick: undo } });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const revert = useMutation({
    mutationFn: (r: R) => items.revert(collection, r.id),
    onSuccess: ({ restored }, r) =>
      toast.success(restored === 'removed' ? `${row.noun} “${row.label(r)}” removed from the draft` : `${row.noun} “${row.label(r)}”: the draft has the live version again`),
    onError: (err) => toast.error(errorMessage(err)),
  });
  return { remove, revert };
}

const CHANGE_LABELS: Record<CatalogChange['change'], { label: string; variant: 'success' | 'warning' | 'destructive' }> = {
  added: { label: 'Added in draft', variant: 'success' },
  changed: { label: 'Changed in draft', variant: 'warning' },
  removed: { label: 'Removed in draft', variant: 'destructive' },
};

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

export type DraftChange = CatalogChange['change'] | null;

/**
 * A list's rows in the draft's view: the draft's items (each made a row by
 * `toRow`, given the live record of the same id, if any) with their change,
 * then the live records the draft removes; without a draft, the live records.
 * Undefined while either is loading.
 */
export function draftRows<R extends { id: string }, I extends { id: string }>(
  live: R[] | undefined,
  draft: Draft | null | undefined,
  kind: CatalogChange['kind'],
  draftItems: (draft: Draft) => I[],
  toRow: (item: I, record: R | undefined, draft: Draft) => R,
): Array<R & { draftChange: DraftChange }> | undefined {
  if (!live || draft === undefined) return undefined;
  if (!draft) return live.map((r) => ({ ...r, draftChange: null }));
  const liveById = new Map(live.map((r) => [r.id, r]));
  const changes = new Map(draft.changes.filter((c) => c.kind === kind).map((c) => [c.id, c.change]));
  const rows = draftItems(draft).map((item) => ({ ...toRow(item, liveById.get(item.id), draft), draftChange: changes.get(item.id) ?? null }));
  for (const [id, change] of changes) {
    const record = liveById.get(id);
    if (change === 'removed' && record) rows.push({ ...record, draftChange: 'removed' });
  }
  return rows;
}

/** The theme presets in the draft's view (the themes screen's rows, the campaign dialog's choices): usedBy from the draft's campaigns. */
export function draftThemeRows(live: ThemeRecord[] | undefined, draft: Draft | null | undefined) {
  return draftRows(live, draft, 'theme', (d) => d.catalog.themes ?? [], (item, record, d) => ({
    ...item,
    version: record?.version ?? 0,
    createdAt: record?.createdAt ?? d.updatedAt,
    updatedAt: record?.updatedAt ?? d.updatedAt,
    usedBy: d.catalog.campaigns.filter((c) => c.themeId === item.id).map((c) => c.id),
  }));
}
