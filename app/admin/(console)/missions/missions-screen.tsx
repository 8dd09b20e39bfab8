'use client';

import * as React from 'react';
import Link from 'next/link';
import type { ColumnDef } from '@tanstack/react-table';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArchiveIcon, ArchiveRestoreIcon, CopyIcon, FilterIcon, PencilIcon, PlusIcon, TargetIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DataTable } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { actionsColumn } from '@/components/ui/row-actions';
import { FilterSelect } from '@/components/ui/select';
import { adminFetch, errorMessage, queryKeys } from '@/components/console/api';
import { formatDateTime, formatRelative } from '@/components/console/format';
import { useStaff } from '@/components/console/staff-context';
import { useSelectedApp } from '@/components/console/use-selected-app';
import type { Campaign } from '@/lib/contract/campaign';
import type { MissionRecord } from '@/lib/contract/mission-admin';
import { WINDOW_LABELS, rewardLabel } from './labels';
import { ANY, missionsPath, useCampaigns, useEventNames, useMissions, type MissionFilters } from './use-missions';

type Action = { kind: 'duplicate' | 'archive' | 'unarchive'; mission: MissionRecord };

function columns(opts: { canWrite: boolean; campaigns: Map<string, Campaign>; editHref(id: string): string; onAction(action: Action): void }): ColumnDef<MissionRecord, unknown>[] {
  const cols: ColumnDef<MissionRecord, unknown>[] = [
    {
      id: 'mission',
      accessorFn: (m) => `${m.title} ${m.id} ${m.description}`,
      header: 'Mission',
      sortingFn: (a, b) => a.original.title.localeCompare(b.original.title),
      cell: ({ row }) => {
        const m = row.original;
        return (
          <div className="w-56 min-w-0" title={m.title}>
            {opts.canWrite ? (
              <Link href={opts.editHref(m.id)} className="block truncate font-medium hover:underline focus-visible:outline-2 focus-visible:outline-ring">
                {m.title}
              </Link>
            ) : (
              <p className="truncate font-medium">{m.title}</p>
            )}
            <p className="truncate font-mono text-xs text-muted-foreground">{m.id}</p>
          </div>
        );
      },
    },
    {
      id: 'criteria',
      accessorFn: (m) => `${m.criteria.eventName} ${m.criteria.window}`,
      header: 'Counts',
      cell: ({ row }) => {
        const c = row.original.criteria;
        const filters = Object.keys(c.filter ?? {}).length;
        return (
          <div className="flex flex-col gap-1">
            <span className="whitespace-nowrap">
              <span className="tabular-nums">{c.count.toLocaleString()}</span> × <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs">{c.eventName}</code>
            </span>
            <span className="flex gap-1 whitespace-nowrap">
              <Badge variant="secondary">{WINDOW_LABELS[c.window]}</Badge>
              {filters > 0 && (
                <Badge variant="outline">
                  <FilterIcon aria-hidden />
                  {filters === 1 ? '1 filter' : `${filters} filters`}
                </Badge>
              )}
            </span>
          </div>
        );
      },
    },
    { id: 'reward', accessorFn: (m) => rewardLabel(m.reward), header: 'Reward', cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue() as string}</span> },
    {
      id: 'campaign',
      accessorFn: (m) => (m.campaignId ? (opts.campaigns.get(m.campaignId)?.title ?? m.campaignId) : ''),
      header: 'Campaign',
      cell: ({ getValue }) =>
        getValue() ? (
          <span className="block max-w-40 truncate" title={getValue() as string}>
            {getValue() as string}
          </span>
        ) : (
          <span className="text-muted-foreground">None</span>
        ),
    },
    {
      id: 'status',
      accessorFn: (m) => (m.archived ? 'archived' : 'live'),
      header: 'Status',
      cell: ({ row }) => {
        const m = row.original;
        if (m.archived) return <Badge variant="secondary">Archived</Badge>;
        if (m.expiresAt !== null && m.expiresAt <= Date.now()) return <Badge variant="warning">Expired</Badge>;
        return <Badge variant="success">Live</Badge>;
      },
    },
    {
      accessorKey: 'updatedAt',
      header: 'Updated',
      cell: ({ row }) => (
        <time dateTime={new Date(row.original.updatedAt).toISOString()} title={`${formatDateTime(row.original.updatedAt)} · version ${row.original.version}`} className="whitespace-nowrap text-muted-foreground">
          {formatRelative(row.original.updatedAt)}
        </time>
      ),
    },
  ];
  if (!opts.canWrite) return cols;
  cols.push(
    actionsColumn(
      (m) => `Actions for ${m.title} (${m.id})`,
      (m) => [
        { label: 'Edit', icon: PencilIcon, href: opts.editHref(m.id) },
        { label: 'Duplicate', icon: CopyIcon, onSelect: () => opts.onAction({ kind: 'duplicate', mission: m }) },
        m.archived
          ? { label: 'Unarchive', icon: ArchiveRestoreIcon, separated: true, onSelect: () => opts.onAction({ kind: 'unarchive', mission: m }) }
          : { label: 'Archive', icon: ArchiveIcon, destructive: true, onSelect: () => opts.onAction({ kind: 'archive', mission: m }) },
      ],
    ),
  );
  return cols;
}

const INITIAL_FILTERS: MissionFilters = { campaignId: ANY, status: 'live', eventName: ANY, window: ANY };

export function MissionsScreen() {
  const { can } = useStaff();
  const canWrite = can('catalog.write');
  const { app, withApp } = useSelectedApp();
  const appId = app?.id;
  const [filters, setFilters] = React.useState<MissionFilters>(INITIAL_FILTERS);
  const missions = useMissions(appId, filters);
  const campaigns = useCampaigns(appId);
  const eventNames = useEventNames(appId);
  const queryClient = useQueryClient();

  const campaignMap = React.useMemo(() => new Map((campaigns.data ?? []).map((c) => [c.id, c])), [campaigns.data]);
  const editHref = React.useCallback((id: string) => `${withApp('/admin/missions/edit')}&id=${encodeURIComponent(id)}`, [withApp]);

  const act = useMutation({
    mutationFn: ({ kind, mission }: Action) =>
      adminFetch<MissionRecord>(`${missionsPath(appId!)}/${encodeURIComponent(mission.id)}/${kind}`, {
        method: 'POST',
        body: kind === 'duplicate' ? {} : { version: mission.version },
      }),
    onSuccess: (result, { kind, mission }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.missions(appId!) });
      if (kind === 'duplicate') toast.success(`Copied to “${result.id}”`, { action: { label: 'Edit', onClick: () => window.location.assign(editHref(result.id)) } });
      else toast.success(`${mission.title} ${kind === 'archive' ? 'archived: players no longer see it' : 'is live again'}`);
    },
    onError: (err) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.missions(appId!) });
      toast.error(errorMessage(err));
    },
  });

  const cols = React.useMemo(() => columns({ canWrite, campaigns: campaignMap, editHref, onAction: (a) => act.mutate(a) }), [canWrite, campaignMap, editHref, act]);
  const set = (patch: Partial<MissionFilters>) => setFilters((f) => ({ ...f, ...patch }));
  const filtered = JSON.stringify(filters) !== JSON.stringify(INITIAL_FILTERS);

  return (
    <>
      <PageHeader
        title="Missions"
        description={
          canWrite
            ? 'What players are asked to do and what they earn. Changes reach players at once.'
            : 'What players are asked to do and what they earn. Your role can read missions, not change them.'
        }
        breadcrumbs={[{ label: 'Console', href: withApp('/admin') }, { label: app?.name ?? 'App' }, { label: 'Missions' }]}
        actions={
          canWrite && app ? (
            <Button asChild>
              <Link href={withApp('/admin/missions/new')}>
                <PlusIcon aria-hidden />
                New mission
              </Link>
            </Button>
          ) : null
        }
      />
      {missions.error ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the missions: {errorMessage(missions.error)}
        </p>
      ) : (
        <DataTable
          label="Missions"
          columns={cols}
          data={missions.data}
          isLoading={missions.isLoading || !app}
          searchPlaceholder="Search missions"
          getRowId={(m) => m.id}
          initialSorting={[{ id: 'mission', desc: false }]}
          toolbar={() => (
            <>
              <FilterSelect
                label="Status"
                value={filters.status}
                onChange={(v) => set({ status: v as MissionFilters['status'] })}
                options={[
                  { value: 'live', label: 'Live' },
                  { value: 'archived', label: 'Archived' },
                  { value: 'all', label: 'Live and archived' },
                ]}
              />
              <FilterSelect
                label="Campaign"
                value={filters.campaignId}
                onChange={(v) => set({ campaignId: v })}
                options={[{ value: ANY, label: 'Any campaign' }, { value: 'none', label: 'No campaign' }, ...(campaigns.data ?? []).map((c) => ({ value: c.id, label: c.title }))]}
              />
              <FilterSelect
                label="Event name"
                value={filters.eventName}
                onChange={(v) => set({ eventName: v })}
                options={[{ value: ANY, label: 'Any event' }, ...(eventNames.data ?? []).map((e) => ({ value: e.name, label: e.name }))]}
              />
              <FilterSelect
                label="Window"
                value={filters.window}
                onChange={(v) => set({ window: v })}
                options={[{ value: ANY, label: 'Any window' }, ...Object.entries(WINDOW_LABELS).map(([value, label]) => ({ value, label }))]}
              />
              {filtered && (
                <Button variant="ghost" size="sm" onClick={() => setFilters(INITIAL_FILTERS)}>
                  Reset filters
                </Button>
              )}
            </>
          )}
          empty={
            <EmptyState
              icon={TargetIcon}
              title={filtered ? 'No mission matches these filters' : 'No mission yet'}
              description={filtered ? 'Change or reset the filters.' : canWrite ? 'Create the first mission: what players do, how often, and what they earn.' : 'An editor creates missions here.'}
            />
          }
        />
      )}
    </>
  );
}
