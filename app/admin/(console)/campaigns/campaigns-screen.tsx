'use client';

import * as React from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { CalendarRangeIcon, PencilIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DataTable, nameColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { actionsColumn } from '@/components/ui/row-actions';
import { FilterSelect } from '@/components/ui/select';
import { adminFetch, appPath, errorMessage, queryKeys } from '@/components/console/api';
import { useBrowserValue, useNow } from '@/components/console/browser-store';
import { campaignPhase, PHASE_BADGE, PHASE_LABELS, timeZoneLabel, type CampaignPhase } from '@/components/console/campaign-phase';
import { formatDateTime } from '@/components/console/format';
import { IfCan, useStaff } from '@/components/console/staff-context';
import { useSelectedApp } from '@/components/console/use-selected-app';
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { CampaignRecord, ThemeRecord } from '@/lib/contract/catalog-admin';
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

function columns(now: number, themes: ThemeRecord[] | undefined, canWrite: boolean, onEdit: (c: CampaignRecord) => void, onDelete: (c: CampaignRecord) => void): ColumnDef<CampaignRecord, unknown>[] {
  const cols: ColumnDef<CampaignRecord, unknown>[] = [
    nameColumn<CampaignRecord>('campaign', 'Campaign', (c) => c.title),
    {
      id: 'status',
      accessorFn: (c) => campaignPhase(c, now),
      header: 'Status',
      filterFn: 'equals',
      cell: ({ row }) => {
        const phase = campaignPhase(row.original, now);
        return <Badge variant={PHASE_BADGE[phase]}>{PHASE_LABELS[phase]}</Badge>;
      },
    },
    {
      accessorKey: 'startAt',
      header: 'Schedule',
      cell: ({ row }) => (
        <div className="text-sm tabular-nums">
          <time dateTime={new Date(row.original.startAt).toISOString()}>{formatDateTime(row.original.startAt)}</time>
          <span className="block text-muted-foreground">
            to <time dateTime={new Date(row.original.endAt).toISOString()}>{formatDateTime(row.original.endAt)}</time>
          </span>
        </div>
      ),
    },
    { id: 'missions', accessorFn: (c) => c.missionIds.length, header: 'Missions', cell: ({ row }) => <span className="tabular-nums">{row.original.missionIds.length}</span> },
    { id: 'theme', header: 'Theme', enableSorting: false, cell: ({ row }) => <ThemeCell campaign={row.original} themes={themes} /> },
    { id: 'budget', header: 'Budget', enableSorting: false, cell: ({ row }) => <CampaignBudgets campaign={row.original} /> },
  ];
  if (!canWrite) return cols;
  cols.push(
    actionsColumn(
      (c) => `Actions for campaign ${c.title}`,
      (c) => [
        { label: 'Edit', icon: PencilIcon, onSelect: () => onEdit(c) },
        { label: 'Delete', icon: Trash2Icon, destructive: true, onSelect: () => onDelete(c) },
      ],
    ),
  );
  return cols;
}

export function CampaignsScreen() {
  const { can } = useStaff();
  const canWrite = can('catalog.write');
  const { app } = useSelectedApp();
  const appId = app?.id ?? '';
  const queryClient = useQueryClient();
  const campaigns = useQuery({
    queryKey: queryKeys.campaigns(appId),
    queryFn: () => adminFetch<{ campaigns: CampaignRecord[] }>(appPath(appId, 'campaigns')).then((r) => r.campaigns),
    enabled: !!app,
  });
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
  const now = useNow();
  // The reader's zone is known in the browser only (the server renders first).
  const zone = useBrowserValue(timeZoneLabel, null);
  const [dialog, setDialog] = React.useState<{ editing: CampaignRecord | null } | null>(null);
  const [deleting, setDeleting] = React.useState<CampaignRecord | null>(null);

  const remove = useMutation({
    mutationFn: (c: CampaignRecord) => adminFetch<void>(`${appPath(appId, 'campaigns', c.id)}?version=${c.version}`, { method: 'DELETE' }),
    onSuccess: (_, c) => {
      for (const key of [queryKeys.campaigns(appId), queryKeys.themes(appId), queryKeys.catalog(appId)]) void queryClient.invalidateQueries({ queryKey: key });
      toast.success(`Campaign “${c.title}” deleted`);
    },
    onError: (err) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.campaigns(appId) });
      toast.error(errorMessage(err));
    },
  });

  const cols = React.useMemo(() => columns(now, themes.data, canWrite, (c) => setDialog({ editing: c }), setDeleting), [now, themes.data, canWrite]);

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
      {campaigns.error ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the campaigns: {errorMessage(campaigns.error)}
        </p>
      ) : (
        <>
          {campaigns.data && <CampaignTimeline campaigns={campaigns.data} themes={themes.data} now={now} />}
          <DataTable
            label="Campaigns"
            columns={cols}
            data={campaigns.data}
            isLoading={campaigns.isLoading || !app}
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
          themes={themes.data}
          missions={catalog.data?.missions}
          campaigns={campaigns.data}
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
          description="Players stop seeing it at once. The audit log keeps what it was."
          confirmLabel="Delete campaign"
          onConfirm={() => deleting && remove.mutate(deleting)}
        />
      )}
    </>
  );
}
