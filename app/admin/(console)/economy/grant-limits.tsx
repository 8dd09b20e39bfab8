'use client';

// The Economy screen's "Grant limits" section (issue 39 §4): the support
// role's limits on staff grants and corrections, per currency, with the
// "*" row for every currency not listed. An app setting, not part of the
// catalog: saved at once with PATCH /api/admin/apps/:appId {grantLimits}
// (admins: apps.manage; audited as app.update), not through the draft. Each
// field is a whole amount, empty for the inherited value ("*" then the
// default), or "No limit" (null). Checked with the API's own schema before it
// is sent; a refusal (either side) is shown under its field.
import * as React from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { PencilIcon } from 'lucide-react';
import { toast } from 'sonner';
import { DataTable } from '@/components/ui/data-table';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { actionsColumn } from '@/components/ui/row-actions';
import { adminFetch, ApiError, errorMessage, queryKeys } from '@/components/console/api';
import { DialogFormFooter } from '@/components/console/dialog-form-footer';
import { DEFAULT_GRANT_LIMIT, grantLimitOf, updateAppSchema, type GrantLimits, type PublicApp } from '@/lib/contract/app';

type Field = 'perGrant' | 'perStaffPerDay';
const FIELDS: { field: Field; label: string; hint: string }[] = [
  { field: 'perGrant', label: 'Per grant', hint: 'The largest amount of one grant or correction' },
  { field: 'perStaffPerDay', label: 'Per staff member per day', hint: 'The most one support member may grant or correct in a UTC day' },
];
const EVERY = '*';
const number = new Intl.NumberFormat('en-US');

interface LimitRow {
  /** The currency, or "*" (every currency not listed). */
  id: string;
  name: string;
  own: { perGrant?: number | null; perStaffPerDay?: number | null } | undefined;
  effective: { perGrant: number | null; perStaffPerDay: number | null };
}

/** Where a field's value comes from: the currency's own entry, the "*" entry, or the default. */
function sourceOf(limits: GrantLimits, id: string, field: Field): 'own' | 'every' | 'default' {
  if (limits?.[id]?.[field] !== undefined) return 'own';
  if (id !== EVERY && limits?.[EVERY]?.[field] !== undefined) return 'every';
  return 'default';
}

const amountText = (v: number | null) => (v === null ? 'No limit' : number.format(v));
const SOURCE_TEXT = { own: '', every: 'from every other currency', default: 'default' } as const;

function LimitCell({ row, field, limits }: { row: LimitRow; field: Field; limits: GrantLimits }) {
  const source = sourceOf(limits, row.id, field);
  return (
    <span className="tabular-nums">
      {amountText(row.effective[field])}
      {source !== 'own' && <span className="ml-1 text-xs text-muted-foreground">({SOURCE_TEXT[source]})</span>}
    </span>
  );
}

function columns(limits: GrantLimits, canWrite: boolean, onEdit: (r: LimitRow) => void): ColumnDef<LimitRow, unknown>[] {
  const cols: ColumnDef<LimitRow, unknown>[] = [
    {
      id: 'currency',
      accessorFn: (r) => `${r.name} ${r.id}`,
      header: 'Currency',
      cell: ({ row }) =>
        row.original.id === EVERY ? (
          <p className="font-medium">Every other currency</p>
        ) : (
          <div className="min-w-0">
            <p className="font-medium">{row.original.name}</p>
            <p className="font-mono text-xs text-muted-foreground">{row.original.id}</p>
          </div>
        ),
    },
    ...FIELDS.map(({ field, label }): ColumnDef<LimitRow, unknown> => ({ id: field, header: label, enableSorting: false, cell: ({ row }) => <LimitCell row={row.original} field={field} limits={limits} /> })),
  ];
  if (canWrite) cols.push(actionsColumn((r) => `Actions for the grant limits of ${r.id === EVERY ? 'every other currency' : r.name}`, (r) => [{ label: 'Edit limits', icon: PencilIcon, onSelect: () => onEdit(r) }]));
  return cols;
}

/** The support role's grant limits of the app's currencies (and of every other one), with an editor for admins. */
export function GrantLimitsSection({ app, currencies, canWrite }: { app: PublicApp; currencies: { id: string; name: string }[] | undefined; canWrite: boolean }) {
  const limits = app.grantLimits;
  const [editing, setEditing] = React.useState<LimitRow | null>(null);
  const rows = React.useMemo<LimitRow[] | undefined>(() => {
    if (!currencies) return undefined;
    const named = new Map(currencies.map((c) => [c.id, c.name]));
    for (const id of Object.keys(limits ?? {})) if (id !== EVERY && !named.has(id)) named.set(id, id);
    const row = (id: string, name: string): LimitRow => ({ id, name, own: limits?.[id], effective: grantLimitOf(limits, id) });
    return [...[...named].map(([id, name]) => row(id, name)), row(EVERY, 'Every other currency')];
  }, [currencies, limits]);
  const cols = React.useMemo(() => columns(limits, canWrite, setEditing), [limits, canWrite]);
  return (
    <section aria-labelledby="grant-limits-heading" className="grid gap-3">
      <div>
        <h2 id="grant-limits-heading" className="text-base font-semibold">
          Grant limits (support role)
        </h2>
        <p className="text-sm text-muted-foreground">
          How much a support member may grant or correct of a currency in the Inspector: per grant, and per staff member per UTC day. Defaults: {number.format(DEFAULT_GRANT_LIMIT.perGrant)} per grant and{' '}
          {number.format(DEFAULT_GRANT_LIMIT.perStaffPerDay)} per day. Admins have no limit (their grants past one are audited). Saved at once, not through the draft{canWrite ? '' : '; admins change them'}.
        </p>
      </div>
      <DataTable label="Grant limits" columns={cols} data={rows} isLoading={!rows} searchPlaceholder="Search grant limits" getRowId={(r) => r.id} />
      <GrantLimitDialog app={app} row={editing} onClose={() => setEditing(null)} />
    </section>
  );
}

type Draft = Record<Field, { text: string; none: boolean }>;

const draftOf = (row: LimitRow): Draft => {
  const of = (field: Field) => {
    const v = row.own?.[field];
    return { text: typeof v === 'number' ? String(v) : '', none: v === null };
  };
  return { perGrant: of('perGrant'), perStaffPerDay: of('perStaffPerDay') };
};

/** The entry the fields make: a number, null (no limit), or absent (empty: inherited). */
function entryOf(draft: Draft): { perGrant?: number | null; perStaffPerDay?: number | null } {
  const entry: { perGrant?: number | null; perStaffPerDay?: number | null } = {};
  for (const { field } of FIELDS) {
    const { text, none } = draft[field];
    const trimmed = text.trim().replaceAll(',', '');
    if (none) entry[field] = null;
    else if (trimmed !== '') entry[field] = Number(trimmed);
  }
  return entry;
}

/** The app's grantLimits with the row's entry replaced (removed when it sets nothing); null when nothing is left. */
function withEntry(limits: GrantLimits, id: string, entry: ReturnType<typeof entryOf>): GrantLimits {
  const next: NonNullable<GrantLimits> = { ...limits };
  delete next[id];
  if (Object.keys(entry).length > 0) next[id] = entry;
  return Object.keys(next).length > 0 ? next : null;
}

type Errors = Partial<Record<Field | 'root', string>>;

/** A refusal of the schema or the API as field errors: "grantLimits.gems.perGrant: at least 1" goes under Per grant. */
function errorsOf(issues: { path: PropertyKey[]; message: string }[]): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    const field = issue.path[2];
    const key = field === 'perGrant' || field === 'perStaffPerDay' ? field : 'root';
    errors[key] ??= issue.message;
  }
  return errors;
}

function apiErrorsOf(err: unknown): Errors {
  if (err instanceof ApiError && err.code === 'validation_error') {
    const m = /^grantLimits\.(?:.+)\.(perGrant|perStaffPerDay):\s*(.*)$/.exec(err.message);
    if (m) return { [m[1] as Field]: m[2] };
  }
  return { root: errorMessage(err) };
}

function GrantLimitDialog({ app, row, onClose }: { app: PublicApp; row: LimitRow | null; onClose(): void }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = React.useState<Draft>({ perGrant: { text: '', none: false }, perStaffPerDay: { text: '', none: false } });
  const [errors, setErrors] = React.useState<Errors>({});
  // Each opening starts from the row's own entry (state adjusted while rendering, not in an effect).
  const [shown, setShown] = React.useState(row);
  if (shown !== row) {
    setShown(row);
    if (row) setDraft(draftOf(row));
    setErrors({});
  }
  const save = useMutation({
    mutationFn: (grantLimits: GrantLimits) => adminFetch<{ app: PublicApp }>(`/api/admin/apps/${encodeURIComponent(app.id)}`, { method: 'PATCH', body: { grantLimits } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.apps });
      toast.success(`Grant limits of ${row?.id === EVERY ? 'every other currency' : row?.name} saved`);
      onClose();
    },
    onError: (err) => setErrors(apiErrorsOf(err)),
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!row) return;
    const next = withEntry(app.grantLimits, row.id, entryOf(draft));
    const parsed = updateAppSchema.safeParse({ grantLimits: next });
    if (!parsed.success) setErrors(errorsOf(parsed.error.issues));
    else save.mutate(next);
  };
  // What an empty field means: the "*" entry's value, else the default.
  const inherited = (field: Field) => {
    if (!row) return '';
    const every = row.id !== EVERY ? app.grantLimits?.[EVERY]?.[field] : undefined;
    return every !== undefined ? `${amountText(every)} (every other currency)` : `${number.format(DEFAULT_GRANT_LIMIT[field])} (default)`;
  };
  const title = row?.id === EVERY ? 'every other currency' : row?.name;
  return (
    <Dialog open={row !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Grant limits of {title}</DialogTitle>
          <DialogDescription>
            For the support role{row && row.id !== EVERY ? (
              <>
                {' '}
                granting <span className="font-mono">{row.id}</span>
              </>
            ) : ' granting a currency without limits of its own'}
            . Leave a field empty for the value shown in it; “No limit” lets support grant any amount.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate aria-label={`Grant limits of ${title ?? ''}`}>
          {FIELDS.map(({ field, label, hint }) => {
            const id = `grant-limit-${field}`;
            const error = errors[field];
            const { text, none } = draft[field];
            const set = (next: Partial<Draft[Field]>) => {
              setDraft((d) => ({ ...d, [field]: { ...d[field], ...next } }));
              setErrors((e) => ({ ...e, [field]: undefined, root: undefined }));
            };
            return (
              <div key={field} className="grid gap-2">
                <Label htmlFor={id}>{label}</Label>
                <div className="flex items-center gap-3">
                  <Input
                    id={id}
                    inputMode="numeric"
                    autoComplete="off"
                    className="tabular-nums"
                    placeholder={none ? 'No limit' : inherited(field)}
                    value={none ? '' : text}
                    disabled={none}
                    aria-invalid={error !== undefined || undefined}
                    aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
                    onChange={(e) => set({ text: e.target.value })}
                  />
                  <label className="flex shrink-0 items-center gap-2 text-sm">
                    <input type="checkbox" className="size-4 accent-(--color-primary)" checked={none} onChange={(e) => set({ none: e.target.checked })} />
                    No limit<span className="sr-only"> ({label.toLowerCase()})</span>
                  </label>
                </div>
                <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                  {hint}.
                </p>
                {error && (
                  <p id={`${id}-error`} className="text-sm text-destructive" data-testid={`${id}-error`}>
                    {error}
                  </p>
                )}
              </div>
            );
          })}
          <DialogFormFooter submitLabel="Save limits" pending={save.isPending} onCancel={onClose} error={errors.root} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
