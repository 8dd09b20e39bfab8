'use client';

import * as React from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useInfiniteQuery } from '@tanstack/react-query';
import { FileDiffIcon, ScrollTextIcon, SearchIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DataTable } from '@/components/ui/data-table';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { FilterSelect } from '@/components/ui/select';
import { adminFetch, errorMessage, queryKeys } from '@/components/console/api';
import { formatDateTime, formatRelative } from '@/components/console/format';
import { useApps } from '@/components/console/use-selected-app';
import { auditSummary } from '@/lib/console/audit-summary';
import type { AuditEntry, AuditPage } from '@/lib/contract/audit';
import { DiffView } from './diff-view';

const ALL = 'all';
const ENTITIES = [
  { value: 'mission', label: 'Missions' },
  { value: 'campaign', label: 'Campaigns' },
  { value: 'theme', label: 'Themes' },
  { value: 'app', label: 'Apps' },
  { value: 'staff', label: 'Staff' },
  { value: 'user', label: 'Players' },
  { value: 'jti', label: 'Tokens' },
];
const RANGES = [
  { value: '3600000', label: 'Last hour' },
  { value: '86400000', label: 'Last 24 hours' },
  { value: '604800000', label: 'Last 7 days' },
  { value: '2592000000', label: 'Last 30 days' },
  { value: ALL, label: 'All time' },
];

interface AuditFilters {
  appId: string;
  actor: string;
  userId: string;
  entity: string;
  range: string;
}

function actorLabel(actor: string): string {
  if (actor.startsWith('staff:')) return actor.slice('staff:'.length);
  if (actor === 'admin-api-key') return 'Admin API key';
  return actor;
}

function columns(onShow: (entry: AuditEntry) => void): ColumnDef<AuditEntry, unknown>[] {
  return [
    {
      accessorKey: 'at',
      header: 'When',
      cell: ({ row }) => (
        <time dateTime={new Date(row.original.at).toISOString()} title={formatDateTime(row.original.at)} className="whitespace-nowrap">
          {formatRelative(row.original.at)}
          <span className="block text-xs text-muted-foreground">{formatDateTime(row.original.at)}</span>
        </time>
      ),
    },
    { id: 'actor', accessorFn: (e) => actorLabel(e.actor), header: 'Who', cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue() as string}</span> },
    {
      accessorKey: 'action',
      header: 'What',
      cell: ({ row }) => {
        const summary = auditSummary(row.original);
        return (
          <div className="grid max-w-md justify-items-start gap-1">
            <Badge variant="outline" className="font-mono">{row.original.action}</Badge>
            {summary && <span className="text-xs wrap-break-word text-muted-foreground" data-testid="audit-summary">{summary}</span>}
          </div>
        );
      },
    },
    {
      accessorKey: 'target',
      header: 'Entity',
      cell: ({ row }) => <code className="break-all font-mono text-xs">{row.original.target}</code>,
    },
    { id: 'app', accessorFn: (e) => e.appId ?? '', header: 'App', cell: ({ getValue }) => (getValue() ? <span className="whitespace-nowrap font-mono text-xs">{getValue() as string}</span> : <span className="text-muted-foreground">—</span>) },
    {
      id: 'diff',
      header: () => <span className="sr-only">Changes</span>,
      enableSorting: false,
      cell: ({ row }) => (
        <div className="flex justify-end">
          <Button variant="outline" size="sm" onClick={() => onShow(row.original)} aria-label={`Changes of ${row.original.action} on ${row.original.target}`}>
            <FileDiffIcon aria-hidden />
            Changes
          </Button>
        </div>
      ),
    },
  ];
}

export function AuditScreen({ initialUserId = '', initialAppId = '' }: { initialUserId?: string; initialAppId?: string }) {
  const apps = useApps();
  const [filters, setFilters] = React.useState<AuditFilters>({ appId: initialAppId || ALL, actor: '', userId: initialUserId, entity: ALL, range: ALL });
  const [actorText, setActorText] = React.useState('');
  const [userText, setUserText] = React.useState(initialUserId);
  const [shown, setShown] = React.useState<AuditEntry | null>(null);
  // The actor and player boxes filter once typing pauses, not on every keystroke.
  React.useEffect(() => {
    const timer = setTimeout(
      () => setFilters((f) => (f.actor === actorText.trim() && f.userId === userText.trim() ? f : { ...f, actor: actorText.trim(), userId: userText.trim() })),
      300,
    );
    return () => clearTimeout(timer);
  }, [actorText, userText]);

  const [since] = React.useState(() => Date.now());
  const params = new URLSearchParams({ limit: '50' });
  if (filters.appId !== ALL) params.set('appId', filters.appId);
  if (filters.actor) params.set('actor', filters.actor);
  if (filters.userId) params.set('userId', filters.userId);
  if (filters.entity !== ALL) params.set('entity', filters.entity);
  if (filters.range !== ALL) params.set('from', String(since - Number(filters.range)));
  const query = params.toString();

  const audit = useInfiniteQuery({
    queryKey: [...queryKeys.audit, query],
    queryFn: ({ pageParam }) => adminFetch<AuditPage>(`/api/admin/audit?${query}${pageParam ? `&before=${pageParam}` : ''}`),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: (previous) => previous,
  });
  const entries = React.useMemo(() => audit.data?.pages.flatMap((p) => p.entries), [audit.data]);
  const cols = React.useMemo(() => columns(setShown), []);
  const set = (patch: Partial<AuditFilters>) => setFilters((f) => ({ ...f, ...patch }));

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change made through the console or the admin API: who made it, when, and the state before and after. Filter by a player’s exact user id to see what staff did to them."
        breadcrumbs={[{ label: 'Console', href: '/admin' }, { label: 'Audit log' }]}
      />
      <div className="mb-3 flex flex-wrap items-center gap-2" role="search" aria-label="Audit log filters">
        <div className="relative w-full max-w-xs">
          <SearchIcon className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input type="search" aria-label="Actor" placeholder="Actor (e-mail)" value={actorText} onChange={(e) => setActorText(e.target.value)} className="pl-8" />
        </div>
        <div className="relative w-full max-w-xs">
          <SearchIcon className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input type="search" aria-label="Player" placeholder="Player (exact user id)" value={userText} onChange={(e) => setUserText(e.target.value)} className="pl-8" />
        </div>
        <FilterSelect label="Entity" value={filters.entity} onChange={(v) => set({ entity: v })} options={[{ value: ALL, label: 'Every entity' }, ...ENTITIES]} />
        <FilterSelect label="Time" value={filters.range} onChange={(v) => set({ range: v })} options={RANGES} />
        <FilterSelect
          label="App"
          value={filters.appId}
          onChange={(v) => set({ appId: v })}
          options={[{ value: ALL, label: 'Every app' }, ...(apps.data ?? []).map((a) => ({ value: a.id, label: a.name }))]}
        />
      </div>
      {audit.error ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the audit log: {errorMessage(audit.error)}
        </p>
      ) : (
        <DataTable
          label="Audit log"
          columns={cols}
          data={entries}
          isLoading={audit.isLoading}
          getRowId={(e) => String(e.id)}
          empty={<EmptyState icon={ScrollTextIcon} title="Nothing recorded" description="No change matches these filters." />}
        />
      )}
      {audit.hasNextPage && (
        <div className="mt-4 flex justify-center">
          <Button variant="outline" onClick={() => void audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
            {audit.isFetchingNextPage ? 'Loading…' : 'Load older entries'}
          </Button>
        </div>
      )}
      <Dialog open={shown !== null} onOpenChange={(open) => !open && setShown(null)}>
        <DialogContent className="sm:max-w-3xl">
          <DialogHeader>
            <DialogTitle>
              <span className="font-mono">{shown?.action}</span> on <span className="font-mono">{shown?.target}</span>
            </DialogTitle>
            <DialogDescription>
              {shown && `By ${actorLabel(shown.actor)}, ${formatDateTime(shown.at)}${shown.appId ? ` · app ${shown.appId}` : ''}`}
            </DialogDescription>
          </DialogHeader>
          {shown && <DiffView before={shown.before} after={shown.after} />}
        </DialogContent>
      </Dialog>
    </>
  );
}
