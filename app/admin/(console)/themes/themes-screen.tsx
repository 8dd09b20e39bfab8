'use client';

import * as React from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { PaletteIcon, PencilIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { DataTable, nameColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { actionsColumn } from '@/components/ui/row-actions';
import { adminFetch, appPath, errorMessage, queryKeys } from '@/components/console/api';
import { formatRelative, formatDateTime } from '@/components/console/format';
import { IfCan, useStaff } from '@/components/console/staff-context';
import { useSelectedApp } from '@/components/console/use-selected-app';
import type { ThemeRecord } from '@/lib/contract/catalog-admin';
import { THEME_COLOR_FIELDS } from '@/lib/contract/theme';
import { ThemeDialog } from './theme-dialog';

function Swatches({ theme }: { theme: ThemeRecord }) {
  return (
    <div className="flex items-center gap-1.5">
      {THEME_COLOR_FIELDS.map((field) => {
        const color = theme[field];
        if (!color) return null;
        return <span key={field} title={`${field}: ${color}`} className="size-5 rounded-full border shadow-xs" style={{ backgroundColor: color }} />;
      })}
      <span className="sr-only">{THEME_COLOR_FIELDS.filter((f) => theme[f]).map((f) => `${f} ${theme[f]}`).join(', ')}</span>
    </div>
  );
}

function columns(canWrite: boolean, onEdit: (t: ThemeRecord) => void, onDelete: (t: ThemeRecord) => void): ColumnDef<ThemeRecord, unknown>[] {
  const cols: ColumnDef<ThemeRecord, unknown>[] = [
    nameColumn<ThemeRecord>('theme', 'Theme', (t) => t.name),
    { id: 'colours', header: 'Colours', enableSorting: false, cell: ({ row }) => <Swatches theme={row.original} /> },
    {
      id: 'usedBy',
      accessorFn: (t) => t.usedBy.length,
      header: 'Used by',
      cell: ({ row }) =>
        row.original.usedBy.length === 0 ? (
          <span className="text-muted-foreground">No campaign</span>
        ) : (
          <span>
            {row.original.usedBy.length} campaign{row.original.usedBy.length > 1 ? 's' : ''}
            <span className="block font-mono text-xs text-muted-foreground">{row.original.usedBy.join(', ')}</span>
          </span>
        ),
    },
    {
      accessorKey: 'updatedAt',
      header: 'Changed',
      cell: ({ row }) => (
        <time dateTime={new Date(row.original.updatedAt).toISOString()} title={formatDateTime(row.original.updatedAt)} className="text-muted-foreground">
          {formatRelative(row.original.updatedAt)}
        </time>
      ),
    },
  ];
  if (!canWrite) return cols;
  cols.push(
    actionsColumn(
      (t) => `Actions for theme ${t.name}`,
      (t) => [
        { label: 'Edit', icon: PencilIcon, onSelect: () => onEdit(t) },
        { label: 'Delete', icon: Trash2Icon, destructive: true, onSelect: () => onDelete(t) },
      ],
    ),
  );
  return cols;
}

export function ThemesScreen() {
  const { can } = useStaff();
  const canWrite = can('catalog.write');
  const { app } = useSelectedApp();
  const appId = app?.id ?? '';
  const queryClient = useQueryClient();
  const { data, isLoading, error } = useQuery({
    queryKey: queryKeys.themes(appId),
    queryFn: () => adminFetch<{ themes: ThemeRecord[] }>(appPath(appId, 'themes')).then((r) => r.themes),
    enabled: !!app,
  });
  const [dialog, setDialog] = React.useState<{ editing: ThemeRecord | null } | null>(null);
  const [deleting, setDeleting] = React.useState<ThemeRecord | null>(null);

  const remove = useMutation({
    mutationFn: (t: ThemeRecord) => adminFetch<void>(`${appPath(appId, 'themes', t.id)}?version=${t.version}`, { method: 'DELETE' }),
    onSuccess: (_, t) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.themes(appId) });
      toast.success(`Theme “${t.name}” deleted`);
    },
    onError: (err) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.themes(appId) });
      toast.error(errorMessage(err));
    },
  });

  const cols = React.useMemo(() => columns(canWrite, (t) => setDialog({ editing: t }), setDeleting), [canWrite]);

  return (
    <>
      <PageHeader
        title="Themes"
        description={`Named colour presets${app ? ` of ${app.name}` : ''}. A campaign uses one, or sets its own colours; players get the resolved theme from /v1.`}
        breadcrumbs={[{ label: 'Console', href: '/admin' }, { label: app?.name ?? 'App' }, { label: 'Themes' }]}
        actions={
          <IfCan capability="catalog.write">
            <Button onClick={() => setDialog({ editing: null })} disabled={!app}>
              <PlusIcon aria-hidden />
              New theme
            </Button>
          </IfCan>
        }
      />
      {!canWrite && <p className="mb-4 text-sm text-muted-foreground">Your role can read themes but not change them.</p>}
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the themes: {errorMessage(error)}
        </p>
      ) : (
        <DataTable
          label="Themes"
          columns={cols}
          data={data}
          isLoading={isLoading || !app}
          searchPlaceholder="Search themes"
          getRowId={(t) => t.id}
          initialSorting={[{ id: 'theme', desc: false }]}
          empty={<EmptyState icon={PaletteIcon} title="No theme yet" description={canWrite ? 'Create a preset, then pick it in a campaign.' : 'An editor can create presets for campaigns.'} />}
        />
      )}
      {app && <ThemeDialog appId={app.id} open={dialog !== null} editing={dialog?.editing ?? null} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={<>Delete the theme “{deleting?.name}”?</>}
        description={
          deleting && deleting.usedBy.length > 0
            ? `Campaigns ${deleting.usedBy.join(', ')} use it: give them another theme first, or the delete is refused.`
            : 'No campaign uses it. The audit log keeps its colours.'
        }
        confirmLabel="Delete theme"
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </>
  );
}
