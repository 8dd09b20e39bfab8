'use client';

import * as React from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { PaletteIcon, PencilIcon, PlusIcon, Trash2Icon, Undo2Icon } from 'lucide-react';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { DataTable, nameColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { actionsColumn } from '@/components/ui/row-actions';
import { adminFetch, appPath, errorMessage, queryKeys } from '@/components/console/api';
import { DraftBanner, DraftChangeBadge, draftThemeRows, useDraft, useDraftItems, useDraftRowActions, type DraftChange } from '@/components/console/draft';
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

/** A preset of the draft (or live, without a draft) and what the draft changes of it. */
type ThemeRow = ThemeRecord & { draftChange: DraftChange };

/** The preset as the draft stores it. */
function themeOf({ version: _v, createdAt: _c, updatedAt: _u, usedBy: _b, draftChange: _d, ...theme }: ThemeRow) {
  return theme;
}

function columns(canWrite: boolean, onEdit: (t: ThemeRow) => void, onDelete: (t: ThemeRow) => void, onRevert: (t: ThemeRow) => void): ColumnDef<ThemeRow, unknown>[] {
  const cols: ColumnDef<ThemeRow, unknown>[] = [
    nameColumn<ThemeRow>('theme', 'Theme', (t) => t.name),
    { id: 'draft', header: 'Draft', enableSorting: false, cell: ({ row }) => <DraftChangeBadge change={row.original.draftChange} /> },
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
      (t) => {
        const revert = { label: t.draftChange === 'added' ? 'Remove from draft' : 'Revert this change', icon: Undo2Icon, separated: true, onSelect: () => onRevert(t) };
        if (t.draftChange === 'removed') return [revert];
        return [
          { label: 'Edit', icon: PencilIcon, onSelect: () => onEdit(t) },
          ...(t.draftChange ? [revert] : []),
          { label: 'Delete', icon: Trash2Icon, destructive: true, onSelect: () => onDelete(t) },
        ];
      },
    ),
  );
  return cols;
}

export function ThemesScreen() {
  const { can } = useStaff();
  const canWrite = can('catalog.write');
  const { app, withApp } = useSelectedApp();
  const appId = app?.id ?? '';
  const draft = useDraft(app?.id);
  const items = useDraftItems(app?.id);
  const { data, error } = useQuery({
    queryKey: queryKeys.themes(appId),
    queryFn: () => adminFetch<{ themes: ThemeRecord[] }>(appPath(appId, 'themes')).then((r) => r.themes),
    enabled: !!app,
  });
  // The draft's view of the presets, badged.
  const rows = React.useMemo(() => draftThemeRows(data, draft.data), [data, draft.data]);
  const [dialog, setDialog] = React.useState<{ editing: ThemeRecord | null } | null>(null);
  const [deleting, setDeleting] = React.useState<ThemeRow | null>(null);

  // Delete and revert write the draft; a delete is undone by putting the preset back.
  const { remove, revert } = useDraftRowActions<ThemeRow>(items, 'themes', {
    noun: 'Theme',
    label: (t) => t.name,
    itemOf: themeOf,
    kept: 'Campaigns keep it until the draft is published.',
  });

  const cols = React.useMemo(
    () => columns(canWrite, ({ draftChange: _d, ...t }) => setDialog({ editing: t }), setDeleting, (t) => revert.mutate(t)),
    [canWrite, revert],
  );

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
      <DraftBanner draft={draft.data} href={withApp('/admin/draft')} />
      {error || draft.error ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the themes: {errorMessage(error ?? draft.error)}
        </p>
      ) : (
        <DataTable
          label="Themes"
          columns={cols}
          data={rows}
          isLoading={!rows || !app}
          searchPlaceholder="Search themes"
          getRowId={(t) => t.id}
          initialSorting={[{ id: 'theme', desc: false }]}
          empty={<EmptyState icon={PaletteIcon} title="No theme yet" description={canWrite ? 'Create a preset, then pick it in a campaign.' : 'An editor can create presets for campaigns.'} />}
        />
      )}
      {app && <ThemeDialog appId={app.id} open={dialog !== null} editing={dialog?.editing ?? null} takenIds={rows?.map((t) => t.id) ?? []} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={<>Delete the theme “{deleting?.name}”?</>}
        description={
          deleting && deleting.usedBy.length > 0
            ? `Campaigns ${deleting.usedBy.join(', ')} use it: give them another theme first, or the delete is refused.`
            : 'No campaign of the draft uses it. It leaves the draft; Undo is offered after the delete.'
        }
        confirmLabel="Delete theme"
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </>
  );
}
