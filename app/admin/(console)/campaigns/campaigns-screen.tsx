'use client';

import * as React from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { ColumnDef } from '@tanstack/react-table';
import { CalendarRangeIcon, CopyIcon, PencilIcon, PlusIcon, Trash2Icon, Undo2Icon } from 'lucide-react';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DataTable, nameColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { actionsColumn } from '@/components/ui/row-actions';
import { FilterSelect } from '@/components/ui/select';
import { adminFetch, appPath, campaignsQuery, errorMessage, queryKeys } from '@/components/console/api';
import { DraftBanner, DraftChangeBadge, draftRows, draftThemeRows, useDraft, useDraftItems, useDraftRowActions, type DraftChange } from '@/components/console/draft';
import { useBrowserValue, useNow } from '@/components/console/browser-store';
import { campaignPhase, PHASE_BADGE, PHASE_LABELS, timeZoneLabel, type CampaignPhase } from '@/components/console/campaign-phase';
import { formatDateTime } from '@/components/console/format';
import { IfCan, useStaff } from '@/components/console/staff-context';
import { useSelectedApp } from '@/components/console/use-selected-app';
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { CampaignRecord, ThemeRecord } from '@/lib/contract/catalog-admin';
import type { Draft } from '@/lib/contract/release';
import { CampaignBudgets } from '@/components/console/campaign-budget';
import { CampaignDialog } from './campaign-dialog';
import { CampaignTimeline, themeColorOf } from './campaign-timeline';

function ThemeCell({ campaign, themes }: { campaign: CampaignRecord; themes: ThemeRecord[] | undefined }) {
  const color = themeColorOf(campaign, themes);
  const label = campaign.themeId ? (themes?.find((t) => t.id === campaign.themeId)?.name ?? campaign.themeId) : campaign.theme ? 'Own colours' : null;
  if (!label) return <span className="text-muted-foreground">None</span>;
  return (
    <span className="flex items-center gap-2">
      <span className="size-4 shrink-0 rounded-full border" style={{ backgroundColor: color }} aria-hidden />
      {label}
    </span>
  );
}

/**
 * A campaign of the draft (or live, without a draft) and what the draft
 * changes of it; `live` is the live catalog's record of the same id (null:
 * only the draft has it): the status says what players see now from it, never
 * from the draft (docs/console.md "Status words").
 */
type CampaignRow = CampaignRecord & { draftChange: DraftChange; live: CampaignRecord | null };

/** What players see of the campaign now (null: only the draft has it, so no phase word). */
function livePhase(c: CampaignRow, now: number): CampaignPhase | null {
  return c.live ? campaignPhase(c.live, now) : null;
}

/** A campaign of the draft as a row: what it spent, its version and times from the live record of the same id. */
function campaignRow(item: Draft['catalog']['campaigns'][number], record: CampaignRecord | undefined, draft: Draft): CampaignRecord {
  return {
    ...item,
    missionIds: item.missionIds ?? [],
    version: record?.version ?? 0,
    createdAt: record?.createdAt ?? draft.updatedAt,
    updatedAt: record?.updatedAt ?? draft.updatedAt,
    ...(record?.budgetSpent ? { budgetSpent: record.budgetSpent } : {}),
    ...(record?.budgetAlerts ? { budgetAlerts: record.budgetAlerts } : {}),
    ...(record?.budgetRefusals ? { budgetRefusals: record.budgetRefusals } : {}),
  };
}

/** The campaign as the draft stores it. */
function campaignOf({ version: _v, createdAt: _c, updatedAt: _u, budgetSpent: _s, budgetAlerts: _a, budgetRefusals: _r, draftChange: _d, live: _l, ...campaign }: CampaignRow) {
  return campaign;
}

function Range({ startAt, endAt }: { startAt: number; endAt: number }) {
  return (
    <>
      <time dateTime={new Date(startAt).toISOString()}>{formatDateTime(startAt)}</time>
      <span className="block text-muted-foreground">
        to <time dateTime={new Date(endAt).toISOString()}>{formatDateTime(endAt)}</time>
      </span>
    </>
  );
}

/**
 * The dates the row shows: the draft's when they differ from the live ones
 * (or the campaign is only in the draft), marked Draft with the live dates
 * beside them; otherwise the dates players see now.
 */
function ScheduleCell({ row }: { row: CampaignRow }) {
  const { live } = row;
  const changed = row.draftChange !== 'removed' && (!live || live.startAt !== row.startAt || live.endAt !== row.endAt);
  if (!row.draftChange || !changed)
    return (
      <div className="text-sm tabular-nums">
        <Range startAt={row.startAt} endAt={row.endAt} />
      </div>
    );
  return (
    <div className="flex flex-col gap-1 text-sm tabular-nums" data-testid="draft-schedule">
      <div className="flex items-start gap-1.5">
        <div>
          <Range startAt={row.startAt} endAt={row.endAt} />
        </div>
        <Badge variant="warning">Draft</Badge>
      </div>
      <span className="text-xs text-muted-foreground">
        Live:{' '}
        {live ? (
          <>
            <time dateTime={new Date(live.startAt).toISOString()}>{formatDateTime(live.startAt)}</time> to <time dateTime={new Date(live.endAt).toISOString()}>{formatDateTime(live.endAt)}</time>
          </>
        ) : (
          'none'
        )}
      </span>
    </div>
  );
}

function columns(
  now: number,
  themes: ThemeRecord[] | undefined,
  canWrite: boolean,
  onEdit: (c: CampaignRow) => void,
  onDelete: (c: CampaignRow) => void,
  onRevert: (c: CampaignRow) => void,
  onDuplicate: (c: CampaignRow) => void,
): ColumnDef<CampaignRow, unknown>[] {
  const cols: ColumnDef<CampaignRow, unknown>[] = [
    nameColumn<CampaignRow>('campaign', 'Campaign', (c) => c.title),
    {
      // What players see now (the live campaign), then what the draft changes of it.
      id: 'status',
      accessorFn: (c) => livePhase(c, now) ?? 'draft',
      header: 'Status',
      filterFn: 'equals',
      cell: ({ row }) => {
        const phase = livePhase(row.original, now);
        const startsAt = phase === 'upcoming' && row.original.live ? row.original.live.startAt : null;
        return (
          <div className="flex flex-col gap-1">
            {phase && (
              <Badge variant={PHASE_BADGE[phase]} title={startsAt !== null ? `Starts ${formatDateTime(startsAt)}` : undefined}>
                {PHASE_LABELS[phase]}
              </Badge>
            )}
            {startsAt !== null && <span className="whitespace-nowrap text-xs text-muted-foreground">Starts {formatDateTime(startsAt)}</span>}
            <DraftChangeBadge change={row.original.draftChange} />
          </div>
        );
      },
    },
    { accessorKey: 'startAt', header: 'Schedule', cell: ({ row }) => <ScheduleCell row={row.original} /> },
    { id: 'missions', accessorFn: (c) => c.missionIds.length, header: 'Missions', cell: ({ row }) => <span className="tabular-nums">{row.original.missionIds.length}</span> },
    { id: 'theme', header: 'Theme', enableSorting: false, cell: ({ row }) => <ThemeCell campaign={row.original} themes={themes} /> },
    { id: 'budget', header: 'Budget', enableSorting: false, cell: ({ row }) => <CampaignBudgets campaign={row.original} /> },
  ];
  if (!canWrite) return cols;
  cols.push(
    actionsColumn(
      (c) => `Actions for campaign ${c.title}`,
      (c) => {
        const revert = { label: c.draftChange === 'added' ? 'Remove from draft' : 'Revert this change', icon: Undo2Icon, separated: true, onSelect: () => onRevert(c) };
        if (c.draftChange === 'removed') return [revert];
        return [
          { label: 'Edit', icon: PencilIcon, onSelect: () => onEdit(c) },
          { label: 'Duplicate with its missions', icon: CopyIcon, onSelect: () => onDuplicate(c) },
          ...(c.draftChange ? [revert] : []),
          { label: 'Delete', icon: Trash2Icon, destructive: true, onSelect: () => onDelete(c) },
        ];
      },
    ),
  );
  return cols;
}

export function CampaignsScreen() {
  const { can } = useStaff();
  const canWrite = can('catalog.write');
  const { app, withApp } = useSelectedApp();
  const appId = app?.id ?? '';
  const draft = useDraft(app?.id);
  const items = useDraftItems(app?.id);
  const campaigns = useQuery({ ...campaignsQuery(appId), enabled: !!app });
  const themes = useQuery({
    queryKey: queryKeys.themes(appId),
    queryFn: () => adminFetch<{ themes: ThemeRecord[] }>(appPath(appId, 'themes')).then((r) => r.themes),
    enabled: !!app,
  });
  // The mission picker's choices (the Missions screen owns editing them).
  const catalog = useQuery({
    queryKey: queryKeys.catalog(appId),
    queryFn: () => adminFetch<CatalogDocument>(appPath(appId, 'catalog')),
    enabled: !!app && canWrite,
  });
  // The draft's view: its campaigns, badged; its missions in the picker.
  const themeRows = React.useMemo(() => draftThemeRows(themes.data, draft.data), [themes.data, draft.data]);
  const rows = React.useMemo(() => {
    const liveById = new Map((campaigns.data ?? []).map((c) => [c.id, c]));
    return draftRows(campaigns.data, draft.data, 'campaign', (d) => d.catalog.campaigns, campaignRow)?.map((r): CampaignRow => ({ ...r, live: liveById.get(r.id) ?? null }));
  }, [campaigns.data, draft.data]);
  const missions = draft.data ? draft.data.catalog.missions : catalog.data?.missions;
  const now = useNow();
  // The reader's zone is known in the browser only (the server renders first).
  const zone = useBrowserValue(timeZoneLabel, null);
  const [dialog, setDialog] = React.useState<{ editing: CampaignRecord | null } | null>(null);
  const [deleting, setDeleting] = React.useState<CampaignRow | null>(null);

  // Delete and revert write the draft; a delete is undone by putting the campaign back.
  const { remove, revert } = useDraftRowActions<CampaignRow>(items, 'campaigns', {
    noun: 'Campaign',
    label: (c) => c.title,
    itemOf: campaignOf,
    kept: 'Players see it until the draft is published.',
  });

  // Duplicate: the campaign and its missions copied into the draft with new ids; the toast opens the copy.
  const duplicate = useMutation({
    mutationFn: (c: CampaignRow) => items.duplicateCampaign(c.id),
    onSuccess: (copied, c) => {
      const copy = copied.draft.catalog.campaigns.find((k) => k.id === copied.campaignId);
      const n = Object.keys(copied.missionIds).length;
      toast.success(`Campaign “${c.title}” copied into the draft as “${copy?.title ?? copied.campaignId}”`, {
        description: `${n === 0 ? 'No mission' : n === 1 ? '1 mission' : `${n} missions`} copied with ${n === 1 ? 'it' : 'them'}, new ids (${copied.campaignId}${n > 0 ? `, ${Object.values(copied.missionIds).join(', ')}` : ''}). Same dates as the original: change them before publishing.`,
        action: copy ? { label: 'Edit the copy', onClick: () => setDialog({ editing: campaignRow(copy, undefined, copied.draft) }) } : undefined,
      });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });

  // mutate is stable across renders (the mutation objects are not): the columns are rebuilt only when what they show changes.
  const { mutate: revertRow } = revert;
  const { mutate: duplicateRow } = duplicate;
  const cols = React.useMemo(
    () => columns(now, themeRows, canWrite, ({ draftChange: _d, live: _l, ...c }) => setDialog({ editing: c }), setDeleting, (c) => revertRow(c), (c) => duplicateRow(c)),
    [now, themeRows, canWrite, revertRow, duplicateRow],
  );

  return (
    <>
      <PageHeader
        title="Campaigns"
        description={`Time-bounded groups of missions${app ? ` of ${app.name}` : ''}, with their banner and theme.${zone ? ` Times are shown in ${zone}.` : ''}`}
        breadcrumbs={[{ label: 'Console', href: '/admin' }, { label: app?.name ?? 'App' }, { label: 'Campaigns' }]}
        actions={
          <IfCan capability="catalog.write">
            <Button onClick={() => setDialog({ editing: null })} disabled={!app}>
              <PlusIcon aria-hidden />
              New campaign
            </Button>
          </IfCan>
        }
      />
      {!canWrite && <p className="mb-4 text-sm text-muted-foreground">Your role can read campaigns but not change them.</p>}
      <DraftBanner draft={draft.data} href={withApp('/admin/draft')} />
      {campaigns.error || draft.error ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the campaigns: {errorMessage(campaigns.error ?? draft.error)}
        </p>
      ) : (
        <>
          {rows && <CampaignTimeline campaigns={rows.filter((c) => c.draftChange !== 'removed')} themes={themeRows} now={now} />}
          <DataTable
            label="Campaigns"
            columns={cols}
            data={rows}
            isLoading={!rows || !app}
            searchPlaceholder="Search campaigns"
            getRowId={(c) => c.id}
            initialSorting={[{ id: 'startAt', desc: true }]}
            toolbar={(table) => (
              <FilterSelect
                label="Filter by status"
                className="w-40"
                value={(table.getColumn('status')?.getFilterValue() as string | undefined) ?? 'all'}
                onChange={(v) => table.getColumn('status')?.setFilterValue(v === 'all' ? undefined : v)}
                options={[{ value: 'all', label: 'All statuses' }, ...(['live', 'upcoming', 'ended', 'archived'] as CampaignPhase[]).map((p) => ({ value: p, label: PHASE_LABELS[p] }))]}
              />
            )}
            empty={<EmptyState icon={CalendarRangeIcon} title="No campaign yet" description={canWrite ? 'Create one, give it missions and a theme.' : 'An editor can create campaigns.'} />}
          />
        </>
      )}
      {app && (
        <CampaignDialog
          appId={app.id}
          open={dialog !== null}
          editing={dialog?.editing ?? null}
          themes={themeRows}
          missions={missions}
          campaigns={rows}
          onClose={() => setDialog(null)}
        />
      )}
      {/* A campaign that missions still name cannot be deleted (the API refuses): the dialog says so and offers the edit, never a red Delete. */}
      {deleting && deleting.missionIds.length > 0 ? (
        <ConfirmDialog
          open
          onClose={() => setDeleting(null)}
          title={<>The campaign “{deleting.title}” cannot be deleted yet</>}
          description={`It still has ${deleting.missionIds.length} mission${deleting.missionIds.length > 1 ? 's' : ''}: move them out first (edit the campaign), or archive it instead.`}
          confirmLabel="Edit the campaign"
          destructive={false}
          onConfirm={() => setDialog({ editing: deleting })}
        />
      ) : (
        <ConfirmDialog
          open={deleting !== null}
          onClose={() => setDeleting(null)}
          title={<>Delete the campaign “{deleting?.title}”?</>}
          description="It leaves the draft; players stop seeing it once the draft is published. Undo is offered after the delete."
          confirmLabel="Delete campaign"
          onConfirm={() => deleting && remove.mutate(deleting)}
        />
      )}
    </>
  );
}
