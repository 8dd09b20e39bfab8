'use client';

// Add or edit one currency or item of the draft's economy: the form keeps its
// fields as typed (maxBalance as text), converts them, then runs the
// contract's schema, so the rules and the paths stay the contract's.
import * as React from 'react';
import { useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { SelectFormField, TextFormField } from '@/components/ui/form-fields';
import { DialogFormFooter } from '@/components/console/dialog-form-footer';
import { currencyDefinitionSchema, itemDefinitionSchema, type CurrencyDefinition, type ItemDefinition } from '@/lib/contract/economy';

export type DefinitionKind = 'currency' | 'item';
type Values = { id: string; name: string; description: string; iconUrl: string; maxBalance: string; kind: 'item' | 'badge' };

const EMPTY: Values = { id: '', name: '', description: '', iconUrl: '', maxBalance: '', kind: 'item' };

function toValues(def: CurrencyDefinition | ItemDefinition | null): Values {
  if (!def) return EMPTY;
  return {
    id: def.id,
    name: def.name,
    description: def.description ?? '',
    iconUrl: def.iconUrl ?? '',
    maxBalance: 'maxBalance' in def && def.maxBalance !== undefined ? String(def.maxBalance) : '',
    kind: 'kind' in def ? def.kind : 'item',
  };
}

/** The typed fields as the contract's definition (empty optional fields left out). */
function definitionOf(kind: DefinitionKind, v: Values) {
  const common = { id: v.id.trim(), name: v.name, ...(v.description.trim() ? { description: v.description } : {}), ...(v.iconUrl.trim() ? { iconUrl: v.iconUrl.trim() } : {}) };
  if (kind === 'item') return itemDefinitionSchema.safeParse({ ...common, kind: v.kind });
  const max = v.maxBalance.trim();
  return currencyDefinitionSchema.safeParse({ ...common, ...(max ? { maxBalance: Number(max) } : {}) });
}

export function DefinitionDialog({
  kind,
  open,
  editing,
  takenIds,
  pending,
  onSave,
  onClose,
}: {
  kind: DefinitionKind;
  open: boolean;
  editing: CurrencyDefinition | ItemDefinition | null;
  takenIds: string[];
  pending: boolean;
  onSave(def: CurrencyDefinition | ItemDefinition): void;
  onClose(): void;
}) {
  const form = useForm<Values>({ defaultValues: EMPTY });
  React.useEffect(() => {
    if (open) form.reset(toValues(editing));
  }, [open, editing, form]);
  const noun = kind === 'currency' ? 'currency' : 'item';

  const submit = (v: Values) => {
    const parsed = definitionOf(kind, v);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) form.setError((String(issue.path[0] ?? 'root') as keyof Values) || 'root', { message: issue.message });
      return;
    }
    const id = parsed.data.id;
    const clash = takenIds.find((t) => t !== editing?.id && t.toLowerCase() === id.toLowerCase());
    if (clash !== undefined) {
      form.setError('id', { message: clash === id ? `A ${noun} with this id exists already` : `Differs from “${clash}” only in case` });
      return;
    }
    onSave(parsed.data);
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{editing ? `Edit ${noun} “${editing.name}”` : `New ${noun}`}</DialogTitle>
          <DialogDescription>
            {kind === 'currency'
              ? 'Rewards, budgets and grants name it by its id. Saved to the draft: players see the name once it is published.'
              : 'Item and badge rewards name it by its id. Saved to the draft: players see the name once it is published.'}
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={form.handleSubmit(submit)} noValidate className="grid gap-4">
            <TextFormField control={form.control} name="name" label="Name" autoComplete="off" placeholder={kind === 'currency' ? 'Gems' : 'Winter badge'} />
            <TextFormField
              control={form.control}
              name="id"
              label={kind === 'currency' ? 'Currency ID' : 'Item ID'}
              description={`Case-sensitive${editing ? '; it cannot change' : ''}.`}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              disabled={editing !== null}
            />
            {kind === 'item' && (
              <SelectFormField
                control={form.control}
                name="kind"
                label="Kind"
                options={[
                  { value: 'item', label: 'Item (item rewards)' },
                  { value: 'badge', label: 'Badge (badge rewards)' },
                ]}
              />
            )}
            <TextFormField control={form.control} name="iconUrl" label="Icon URL" autoComplete="off" placeholder="https://cdn.example.com/icon.png" />
            <TextFormField control={form.control} name="description" label="Description" autoComplete="off" />
            {kind === 'currency' && (
              <TextFormField
                control={form.control}
                name="maxBalance"
                label="Maximum balance"
                description="Grants and claims that would take a balance past it are refused. Empty: no limit."
                inputMode="numeric"
                autoComplete="off"
              />
            )}
            <DialogFormFooter submitLabel="Save to draft" pending={pending} onCancel={onClose} error={form.formState.errors.root?.message} />
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
