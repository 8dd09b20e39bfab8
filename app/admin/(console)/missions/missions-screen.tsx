'use client';

import * as React from 'react';
import Link from 'next/link';
import type { ColumnDef } from '@tanstack/react-table';
import { useMutation } from '@tanstack/react-query';
import { ArchiveIcon, ArchiveRestoreIcon, CopyIcon, FilterIcon, LockIcon, PencilIcon, PlusIcon, TargetIcon, Undo2Icon, UsersIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DataTable } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { actionsColumn } from '@/components/ui/row-actions';
import { FilterSelect } from '@/components/ui/select';
import { errorMessage } from '@/components/console/api';
import { DraftBanner, DraftChangeBadge, useDraft, useDraftItems } from '@/components/console/draft';
import { formatDateTime, formatRelative } from '@/components/console/format';
import { useNow } from '@/components/console/browser-store';
import { MISSION_STATUS_BADGE, MISSION_STATUS_LABELS, missionStatus, sameReward, type MissionStatus } from '@/components/console/mission-status';
import { useStaff } from '@/components/console/staff-context';
import { useSelectedApp } from '@/components/console/use-selected-app';
import type { Mission } from '@/lib/contract/mission';
import type { MissionRecord } from '@/lib/contract/mission-admin';
import type { Draft } from '@/lib/contract/release';
import { describeMission, sentence } from '@/lib/missions/describe-mission';
import { WINDOW_LABELS, rewardsLabel, type RewardNames } from './labels';
import { useRewardNames } from './use-reward-names';
import { rewardsOf } from '@/lib/contract/mission';
import { ANY, useCampaigns, useEventNames, useMissions, type MissionFilters } from './use-missions';

/**
 * A row of the list: the draft's version of a mission (the live one when the
 * app has no draft), what the draft changes of it, and its campaign's title.
 * The title is in the row, not looked up by the column: TanStack Table caches
 * each row's column values until the data changes, so a title looked up in
 * the column stayed the campaign's id when the campaigns answered after the
 * missions. `live` is the live mission of the same id (null: only the draft
 * has it) and `status` what players see of it now, from the live mission and
 * its live campaign (null: not live); the Status and Reward columns say the
 * draft's changes apart from it (docs/console.md "Status words").
 */
type MissionRow = MissionRecord & {
  draftChange: 'added' | 'changed' | 'removed' | null;
  campaignTitle: string;
  live: MissionRecord | null;
  status: MissionStatus | null;
  /** When a scheduled mission's live campaign starts. */
  startsAt: number | null;
};

/** A live campaign as the rows read it: its schedule and whether it is archived. */
type LiveCampaign = { startAt: number; endAt: number; archived?: boolean };

type Action = { kind: 'duplicate' | 'archive' | 'unarchive' | 'revert'; mission: MissionRow };

/** The mission itself, as the draft stores it (no version, no timestamps). */
function missionOf({ version: _v, createdAt: _c, updatedAt: _u, draftChange: _d, campaignTitle: _t, live: _l, status: _s, startsAt: _a, ...mission }: MissionRow): Mission {
  return mission;
}

/**
 * The list the editors work on: the draft's missions, each with its draft
 * change, plus the live missions the draft removes (badged, revertible);
 * without a draft, the live missions. Live records lend their version and
 * timestamps; a change in the draft shows the draft's time.
 */
function draftView(
  live: MissionRecord[],
  draft: Draft | null | undefined,
  campaignTitle: (campaignId: string | null | undefined) => string,
  liveCampaign: (campaignId: string) => LiveCampaign | undefined,
  now: number,
): MissionRow[] {
  // What players see now: the live mission and its live campaign, whatever the draft says.
  const liveOf = (record: MissionRecord | undefined) => {
    if (!record) return { live: null, status: null, startsAt: null };
    const campaign = record.campaignId ? liveCampaign(record.campaignId) : undefined;
    const status = missionStatus(record, campaign, now);
    return { live: record, status, startsAt: status === 'scheduled' && campaign ? campaign.startAt : null };
  };
  if (!draft) return live.map((m) => ({ ...m, draftChange: null, campaignTitle: campaignTitle(m.campaignId), ...liveOf(m) }));
  const liveById = new Map(live.map((m) => [m.id, m]));
  const changeOf = new Map(draft.changes.filter((c) => c.kind === 'mission').map((c) => [c.id, c.change]));
  const rows: MissionRow[] = draft.catalog.missions.map((m) => {
    const record = liveById.get(m.id);
    const draftChange = changeOf.get(m.id) ?? null;
    return {
      ...m,
      version: record?.version ?? 0,
      createdAt: record?.createdAt ?? draft.updatedAt,
      updatedAt: draftChange || !record ? draft.updatedAt : record.updatedAt,
      draftChange,
      campaignTitle: campaignTitle(m.campaignId),
      ...liveOf(record),
    };
  });
  for (const [id, change] of changeOf) {
    const record = liveById.get(id);
    if (change === 'removed' && record) rows.push({ ...record, draftChange: 'removed', campaignTitle: campaignTitle(record.campaignId), ...liveOf(record) });
  }
  return rows;
}

/**
 * The reward the row shows: the draft's when it differs from the live one
 * (or the mission is only in the draft), marked Draft with the live reward
 * beside it; otherwise the reward players get now.
 */
function RewardCell({ row, names }: { row: MissionRow; names: RewardNames }) {
  const draftOnly = row.draftChange === 'added' || (row.draftChange === 'changed' && !row.live);
  const mine = rewardsOf(row);
  const live = row.live ? rewardsOf(row.live) : null;
  const changed = row.draftChange === 'changed' && live !== null && (live.length !== mine.length || mine.some((r, i) => !sameReward(r, live[i])));
  if (!draftOnly && !changed) return <span className="whitespace-nowrap">{rewardsLabel(mine, names)}</span>;
  return (
    <div className="flex flex-col gap-1" data-testid="draft-reward">
      <span className="flex items-center gap-1.5 whitespace-nowrap">
        {rewardsLabel(mine, names)}
        <Badge variant="warning">Draft</Badge>
      </span>
      <span className="whitespace-nowrap text-xs text-muted-foreground">Live: {live ? rewardsLabel(live, names) : 'none'}</span>
    </div>
  );
}

/** The list's filters, applied to the draft's view (the same rules as GET …/missions). */
function matches(m: MissionRow, f: MissionFilters): boolean {
  if (f.status === 'live' && m.archived) return false;
  if (f.status === 'archived' && !m.archived) return false;
  if (f.campaignId !== ANY && (f.campaignId === 'none' ? m.campaignId !== undefined && m.campaignId !== null : m.campaignId !== f.campaignId)) return false;
  if (f.eventName !== ANY && m.criteria.eventName !== f.eventName) return false;
  if (f.window !== ANY && m.criteria.window !== f.window) return false;
  return true;
}

/** `<id>-copy`, or `<id>-copy-2`, … : an id no mission of the list has. */
function copyId(id: string, taken: Set<string>): string {
  const base = `${id}-copy`.slice(0, 64);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

function columns(opts: { canWrite: boolean; editHref(id: string): string; onAction(action: Action): void; titleOf(id: string): string; names: RewardNames }): ColumnDef<MissionRow, unknown>[] {
  const cols: ColumnDef<MissionRow, unknown>[] = [
    {
      id: 'mission',
      accessorFn: (m) => `${m.title} ${m.id} ${m.description}`,
      header: 'Mission',
      sortingFn: (a, b) => a.original.title.localeCompare(b.original.title),
      cell: ({ row }) => {
        const m = row.original;
        return (
          <div className="w-44 min-w-0 2xl:w-56" title={m.title}>
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
      accessorFn: (m) => describeMission(m).summary,
      header: 'Criteria',
      cell: ({ row }) => {
        const m = row.original;
        const d = describeMission(m, { titles: opts.titleOf });
        const filters = Object.keys(m.criteria.filter ?? {}).length;
        return (
          <div className="flex max-w-64 min-w-40 flex-col gap-1 2xl:max-w-80" data-testid="mission-criteria">
            <span>{d.measure}</span>
            <span className="flex gap-1 whitespace-nowrap">
              <Badge variant="secondary">{d.window ? sentence(d.window) : WINDOW_LABELS.lifetime}</Badge>
              {filters > 0 && (
                <Badge variant="outline" title={d.filter ?? undefined}>
                  <FilterIcon aria-hidden />
                  {filters === 1 ? '1 filter' : `${filters} filters`}
                </Badge>
              )}
            </span>
            {d.audience && (
              <span className="flex items-start gap-1 text-xs text-muted-foreground">
                <UsersIcon className="mt-0.5 size-3 shrink-0" aria-hidden />
                {sentence(d.audience)}
              </span>
            )}
            {d.prerequisites && (
              <span className="flex items-start gap-1 text-xs text-muted-foreground">
                <LockIcon className="mt-0.5 size-3 shrink-0" aria-hidden />
                {sentence(d.prerequisites)}
              </span>
            )}
          </div>
        );
      },
    },
    { id: 'reward', accessorFn: (m) => rewardsLabel(rewardsOf(m), opts.names), header: 'Reward', cell: ({ row }) => <RewardCell row={row.original} names={opts.names} /> },
    {
      id: 'campaign',
      accessorFn: (m) => m.campaignTitle,
      header: 'Campaign',
      cell: ({ getValue }) =>
        getValue() ? (
          <span className="block max-w-32 truncate 2xl:max-w-40" title={getValue() as string}>
            {getValue() as string}
          </span>
        ) : (
          <span className="text-muted-foreground">None</span>
        ),
    },
    {
      // What players see now (the live mission and campaign), then what the draft changes of it.
      id: 'status',
      accessorFn: (m) => m.status ?? 'draft',
      header: 'Status',
      cell: ({ row }) => {
        const m = row.original;
        return (
          <div className="flex flex-col gap-1">
            {m.status && (
              <Badge variant={MISSION_STATUS_BADGE[m.status]} title={m.startsAt !== null ? `Its campaign starts ${formatDateTime(m.startsAt)}` : undefined}>
                {MISSION_STATUS_LABELS[m.status]}
              </Badge>
            )}
            {/* Wraps under the badge (a date and time on one line pushed Updated out of a 1440 px screen). */}
            {m.startsAt !== null && <span className="max-w-36 text-xs text-muted-foreground">Starts {formatDateTime(m.startsAt)}</span>}
            <DraftChangeBadge change={m.draftChange} />
          </div>
        );
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
      (m) => {
        const revert = { label: m.draftChange === 'added' ? 'Remove from draft' : 'Revert this change', icon: Undo2Icon, separated: true, onSelect: () => opts.onAction({ kind: 'revert', mission: m }) };
        if (m.draftChange === 'removed') return [revert];
        return [
          { label: 'Edit', icon: PencilIcon, href: opts.editHref(m.id) },
          { label: 'Duplicate', icon: CopyIcon, onSelect: () => opts.onAction({ kind: 'duplicate', mission: m }) },
          ...(m.draftChange ? [revert] : []),
          m.archived
            ? { label: 'Unarchive', icon: ArchiveRestoreIcon, separated: true, onSelect: () => opts.onAction({ kind: 'unarchive', mission: m }) }
            : { label: 'Archive', icon: ArchiveIcon, destructive: true, onSelect: () => opts.onAction({ kind: 'archive', mission: m }) },
        ];
      },
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
  // Every live mission (the filters apply to the draft's view, below) and the draft.
  const missions = useMissions(appId);
  const draft = useDraft(appId);
  const items = useDraftItems(appId);
  const campaigns = useCampaigns(appId);
  const eventNames = useEventNames(appId);
  const now = useNow();
  // The draft's campaigns when there is a draft (a campaign only the draft has names its missions too), else live.
  const campaignList = React.useMemo(
    () => (draft.data ? draft.data.catalog.campaigns.map((c) => ({ ...c, missionIds: c.missionIds ?? [] })) : (campaigns.data ?? [])),
    [draft.data, campaigns.data],
  );
  const all = React.useMemo(() => {
    // The live campaigns too: a row's status is not guessed before its campaign's schedule is known.
    if (!missions.data || draft.data === undefined || (campaigns.data === undefined && !campaigns.error)) return undefined;
    const titles = new Map(campaignList.map((c) => [c.id, c.title]));
    const liveCampaigns = new Map((campaigns.data ?? []).map((c) => [c.id, c]));
    return draftView(missions.data, draft.data, (id) => (id ? (titles.get(id) ?? id) : ''), (id) => liveCampaigns.get(id), now);
  }, [missions.data, draft.data, campaignList, campaigns.data, campaigns.error, now]);
  const rows = React.useMemo(() => all?.filter((m) => matches(m, filters)), [all, filters]);
  const editHref = React.useCallback((id: string) => `${withApp('/admin/missions/edit')}&id=${encodeURIComponent(id)}`, [withApp]);

  // Every action writes the draft, never live; archive, unarchive and duplicate offer Undo (the draft's item as it was).
  const act = useMutation({
    mutationFn: async ({ kind, mission }: Action) => {
      const before = missionOf(mission);
      switch (kind) {
        case 'duplicate': {
          const id = copyId(mission.id, new Set((all ?? []).map((m) => m.id)));
          await items.put('missions', id, { ...before, id, title: `${mission.title} (copy)`.slice(0, 200), archived: false });
          return id;
        }
        case 'archive':
        case 'unarchive':
          await items.put('missions', mission.id, { ...before, archived: kind === 'archive' });
          return mission.id;
        case 'revert':
          await items.revert('missions', mission.id);
          return mission.id;
      }
    },
    onSuccess: (id, { kind, mission }) => {
      const before = missionOf(mission);
      const undo = (run: () => Promise<unknown>) => ({ label: 'Undo', onClick: () => void run().then(() => toast.success('Undone in the draft'), (err: unknown) => toast.error(errorMessage(err))) });
      if (kind === 'duplicate') {
        toast.success(`Copied to “${id}” in the draft`, { action: { label: 'Edit', onClick: () => window.location.assign(editHref(id)) }, cancel: undo(() => items.remove('missions', id)) });
      } else if (kind === 'revert') {
        toast.success(mission.draftChange === 'added' ? `${mission.title} removed from the draft` : `${mission.title}: the draft has the live version again`);
      } else {
        const done = kind === 'archive' ? 'archived in the draft: players see it until the draft is published' : 'unarchived in the draft';
        toast.success(`${mission.title} ${done}`, { action: undo(() => items.put('missions', mission.id, before)) });
      }
    },
    onError: (err) => {
      toast.error(errorMessage(err));
    },
  });

  // Prerequisites are named by title: the cells read them through the columns, which change with the list.
  const titleOf = React.useMemo(() => {
    const titles = new Map((all ?? []).map((m) => [m.id, m.title]));
    return (id: string) => titles.get(id) ?? id;
  }, [all]);
  const names = useRewardNames(appId);
  const cols = React.useMemo(() => columns({ canWrite, editHref, onAction: (a) => act.mutate(a), titleOf, names }), [canWrite, editHref, act, titleOf, names]);
  const set = (patch: Partial<MissionFilters>) => setFilters((f) => ({ ...f, ...patch }));
  const filtered = JSON.stringify(filters) !== JSON.stringify(INITIAL_FILTERS);

  return (
    <>
      <PageHeader
        title="Missions"
        description={
          canWrite
            ? 'What players are asked to do and what they earn. Changes are saved to the draft; players see them once it is published.'
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
      <DraftBanner draft={draft.data} href={withApp('/admin/draft')} />
      {missions.error || draft.error ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the missions: {errorMessage(missions.error ?? draft.error)}
        </p>
      ) : (
        <DataTable
          label="Missions"
          columns={cols}
          data={rows}
          isLoading={!rows || !app}
          searchPlaceholder="Search missions"
          getRowId={(m) => m.id}
          initialSorting={[{ id: 'mission', desc: false }]}
          toolbar={() => (
            <>
              <FilterSelect
                label="Status"
                value={filters.status}
                onChange={(v) => set({ status: v as MissionFilters['status'] })}
                // Archived or not in the draft's view; "Live" is what players see now (the Status column).
                options={[
                  { value: 'live', label: 'Not archived' },
                  { value: 'archived', label: 'Archived' },
                  { value: 'all', label: 'Archived or not' },
                ]}
              />
              <FilterSelect
                label="Campaign"
                value={filters.campaignId}
                onChange={(v) => set({ campaignId: v })}
                options={[{ value: ANY, label: 'Any campaign' }, { value: 'none', label: 'No campaign' }, ...campaignList.map((c) => ({ value: c.id, label: c.title }))]}
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
