'use client';

// The Economy screen: the selected app's currencies and items, edited through
// the draft like missions (PUT …/draft/economy sends each section whole). An
// app without the sections shows what its catalog names (implied, name = id);
// the first save writes them as the app's definitions. Below the currencies,
// the support role's grant limits (an app setting, saved at once: grant-limits.tsx).
import * as React from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { CoinsIcon, PencilIcon, PlusIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DataTable, nameColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { actionsColumn } from '@/components/ui/row-actions';
import { adminFetch, appPath, errorMessage } from '@/components/console/api';
import { DraftBanner, useDraft } from '@/components/console/draft';
import { IfCan, useStaff } from '@/components/console/staff-context';
import { useSelectedApp } from '@/components/console/use-selected-app';
import type { CurrencyDefinition, Economy, ItemDefinition } from '@/lib/contract/economy';
import type { Draft } from '@/lib/contract/release';
import { DefinitionDialog, type DefinitionKind } from './definition-dialog';
import { rewardsOf } from '@/lib/contract/mission';
import { GrantLimitsSection } from './grant-limits';

type Row<T> = T & { implied: boolean };

const strip = <T extends { implied?: boolean }>({ implied: _i, ...def }: T): Omit<T, 'implied'> => def;

/** The sections the draft would hold: its own when it carries them, else the app's list (what live defines or names, and what the draft names). */
function sectionsOf(economy: Economy | undefined, draft: Draft | null | undefined) {
  if (!economy) return null;
  const named = new Map<string, CurrencyDefinition>();
  const items = new Map<string, ItemDefinition>();
  for (const c of economy.currencies) named.set(c.id, strip(c));
  for (const d of economy.items) items.set(d.id, strip(d));
  for (const r of (draft?.catalog.missions ?? []).flatMap(rewardsOf)) {
    if (r.kind === 'currency' && !named.has(r.currency)) named.set(r.currency, { id: r.currency, name: r.currency });
    if (r.kind === 'item' && !items.has(r.itemId)) items.set(r.itemId, { id: r.itemId, name: r.itemId, kind: 'item' });
    if (r.kind === 'badge' && !items.has(r.badgeId)) items.set(r.badgeId, { id: r.badgeId, name: r.badgeId, kind: 'badge' });
  }
  for (const c of draft?.catalog.campaigns ?? []) for (const line of c.budget ?? []) if (!named.has(line.currency)) named.set(line.currency, { id: line.currency, name: line.currency });
  const implied = new Set([...economy.currencies.filter((c) => c.implied).map((c) => c.id), ...economy.items.filter((d) => d.implied).map((d) => d.id)]);
  const currencies: Row<CurrencyDefinition>[] = (draft?.catalog.currencies ?? [...named.values()]).map((c) => ({ ...c, implied: !draft?.catalog.currencies && (implied.has(c.id) || !economy.currencies.some((e) => e.id === c.id)) }));
  const itemRows: Row<ItemDefinition>[] = (draft?.catalog.items ?? [...items.values()]).map((d) => ({ ...d, implied: !draft?.catalog.items && (implied.has(d.id) || !economy.items.some((e) => e.id === d.id)) }));
  const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return { currencies: currencies.sort(byId), items: itemRows.sort(byId) };
}

function ImpliedBadge({ implied }: { implied: boolean }) {
  return implied ? <Badge variant="outline" title="Named by the catalog or a balance, not defined yet (name = id)">Not defined</Badge> : null;
}

function Icon({ url, name }: { url?: string; name: string }) {
  // eslint-disable-next-line @next/next/no-img-element -- an icon URL staff typed, from any host: next/image would need each host configured.
  return url ? <img src={url} alt={`${name} icon`} className="size-6 rounded object-cover" /> : <span className="text-muted-foreground">None</span>;
}

function currencyColumns(canWrite: boolean, onEdit: (c: CurrencyDefinition) => void): ColumnDef<Row<CurrencyDefinition>, unknown>[] {
  const cols: ColumnDef<Row<CurrencyDefinition>, unknown>[] = [
    nameColumn<Row<CurrencyDefinition>>('currency', 'Currency', (c) => c.name),
    { id: 'state', header: 'Definition', enableSorting: false, cell: ({ row }) => <ImpliedBadge implied={row.original.implied} /> },
    { id: 'icon', header: 'Icon', enableSorting: false, cell: ({ row }) => <Icon url={row.original.iconUrl} name={row.original.name} /> },
    { id: 'maxBalance', accessorFn: (c) => c.maxBalance ?? Infinity, header: 'Maximum balance', cell: ({ row }) => (row.original.maxBalance === undefined ? <span className="text-muted-foreground">No limit</span> : row.original.maxBalance.toLocaleString('en-US')) },
    { id: 'description', header: 'Description', enableSorting: false, cell: ({ row }) => <span className="text-muted-foreground">{row.original.description ?? ''}</span> },
  ];
  if (canWrite) cols.push(actionsColumn((c) => `Actions for currency ${c.name}`, (c) => [{ label: 'Edit', icon: PencilIcon, onSelect: () => onEdit(strip(c)) }]));
  return cols;
}

function itemColumns(canWrite: boolean, onEdit: (d: ItemDefinition) => void): ColumnDef<Row<ItemDefinition>, unknown>[] {
  const cols: ColumnDef<Row<ItemDefinition>, unknown>[] = [
    nameColumn<Row<ItemDefinition>>('item', 'Item', (d) => d.name),
    { id: 'kind', accessorKey: 'kind', header: 'Kind', cell: ({ row }) => <Badge variant="secondary">{row.original.kind}</Badge> },
    { id: 'state', header: 'Definition', enableSorting: false, cell: ({ row }) => <ImpliedBadge implied={row.original.implied} /> },
    { id: 'icon', header: 'Icon', enableSorting: false, cell: ({ row }) => <Icon url={row.original.iconUrl} name={row.original.name} /> },
    { id: 'description', header: 'Description', enableSorting: false, cell: ({ row }) => <span className="text-muted-foreground">{row.original.description ?? ''}</span> },
  ];
  if (canWrite) cols.push(actionsColumn((d) => `Actions for item ${d.name}`, (d) => [{ label: 'Edit', icon: PencilIcon, onSelect: () => onEdit(strip(d)) }]));
  return cols;
}

export function EconomyScreen() {
  const { can } = useStaff();
  const canWrite = can('catalog.write');
  const { app, withApp } = useSelectedApp();
  const appId = app?.id ?? '';
  const draft = useDraft(app?.id);
  const queryClient = useQueryClient();
  const economy = useQuery({ queryKey: ['admin', 'apps', appId, 'economy'], queryFn: () => adminFetch<Economy>(appPath(appId, 'economy')), enabled: !!app });
  const sections = React.useMemo(() => sectionsOf(economy.data, draft.data), [economy.data, draft.data]);
  const [dialog, setDialog] = React.useState<{ kind: DefinitionKind; editing: CurrencyDefinition | ItemDefinition | null } | null>(null);

  const save = useMutation({
    mutationFn: async ({ kind, def }: { kind: DefinitionKind; def: CurrencyDefinition | ItemDefinition }) => {
      if (!sections) throw new Error('The economy is still loading');
      const others = <T extends { id: string; implied: boolean }>(rows: T[]) => rows.map(strip).filter((d) => d.id !== def.id);
      const body = kind === 'currency' ? { currencies: [...others(sections.currencies), def] } : { items: [...others(sections.items), def] };
      return adminFetch<Draft>(appPath(appId, 'draft', 'economy'), { method: 'PUT', body });
    },
    onSuccess: (next, { def }) => {
      queryClient.setQueryData(['admin', 'apps', appId, 'draft'], next);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'apps', appId] });
      toast.success(`“${def.name}” saved to the draft`, { description: 'Players see it once the draft is published.' });
      setDialog(null);
    },
    onError: (err) => toast.error(errorMessage(err)),
  });

  const currencyCols = React.useMemo(() => currencyColumns(canWrite, (c) => setDialog({ kind: 'currency', editing: c })), [canWrite]);
  const itemCols = React.useMemo(() => itemColumns(canWrite, (d) => setDialog({ kind: 'item', editing: d })), [canWrite]);
  const failed = economy.error ?? draft.error;

  return (
    <>
      <PageHeader
        title="Economy"
        description={`The currencies, items and badges${app ? ` of ${app.name}` : ''}: what rewards, budgets and grants may name, with the names and icons players see.`}
        breadcrumbs={[{ label: 'Console', href: '/admin' }, { label: app?.name ?? 'App' }, { label: 'Economy' }]}
        actions={
          <IfCan capability="catalog.write">
            <Button variant="outline" onClick={() => setDialog({ kind: 'item', editing: null })} disabled={!sections}>
              <PlusIcon aria-hidden />
              New item
            </Button>
            <Button onClick={() => setDialog({ kind: 'currency', editing: null })} disabled={!sections}>
              <PlusIcon aria-hidden />
              New currency
            </Button>
          </IfCan>
        }
      />
      {!canWrite && <p className="mb-4 text-sm text-muted-foreground">Your role can read the economy but not change it.</p>}
      <DraftBanner draft={draft.data} href={withApp('/admin/draft')} />
      {failed ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the economy: {errorMessage(failed)}
        </p>
      ) : (
        <div className="grid gap-8">
          <section aria-labelledby="currencies-heading" className="grid gap-3">
            <h2 id="currencies-heading" className="text-base font-semibold">
              Currencies
            </h2>
            <DataTable
              label="Currencies"
              columns={currencyCols}
              data={sections?.currencies}
              isLoading={!sections}
              searchPlaceholder="Search currencies"
              getRowId={(c) => c.id}
              initialSorting={[{ id: 'currency', desc: false }]}
              empty={<EmptyState icon={CoinsIcon} title="No currency yet" description="Define the currencies rewards and grants may name." />}
            />
          </section>
          {app && <GrantLimitsSection app={app} currencies={sections?.currencies} canWrite={can('apps.manage')} />}
          <section aria-labelledby="items-heading" className="grid gap-3">
            <h2 id="items-heading" className="text-base font-semibold">
              Items and badges
            </h2>
            <DataTable
              label="Items and badges"
              columns={itemCols}
              data={sections?.items}
              isLoading={!sections}
              searchPlaceholder="Search items"
              getRowId={(d) => d.id}
              initialSorting={[{ id: 'item', desc: false }]}
              empty={<EmptyState icon={CoinsIcon} title="No item yet" description="Define the items and badges rewards may name." />}
            />
          </section>
        </div>
      )}
      <DefinitionDialog
        kind={dialog?.kind ?? 'currency'}
        open={dialog !== null}
        editing={dialog?.editing ?? null}
        takenIds={(dialog?.kind === 'item' ? sections?.items : sections?.currencies)?.map((d) => d.id) ?? []}
        pending={save.isPending}
        onSave={(def) => dialog && save.mutate({ kind: dialog.kind, def })}
        onClose={() => setDialog(null)}
      />
    </>
  );
}
