'use client';

// A picker of the app's defined currencies, items or badges (issue 39 §1:
// every reward, budget and grant field names a defined id, never free text).
// Each option shows the display name and the id. What it offers:
// - source "draft" (the editors: missions, campaign budgets): the draft's
//   section when the draft carries one (what the draft's validation checks),
//   else the app's list from GET …/economy (defined, or implied: name = id);
// - source "live" (the support desk's grant): the app's list from GET …/economy,
//   what a grant is checked against.
// A value the list does not hold (a catalog written before the definitions) is
// kept and shown as "not defined", so opening an editor never changes it.
// When the app defines nothing of the kind, it says so and links to the
// Economy screen.
import * as React from 'react';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { Select, SelectContent, SelectGroup, SelectItem, SelectLabel, SelectTrigger, SelectValue } from '@/components/ui/select';
import { adminFetch, appPath } from '@/components/console/api';
import { useDraft } from '@/components/console/draft';
import { useSelectedApp } from '@/components/console/use-selected-app';
import type { Economy } from '@/lib/contract/economy';

type EconomyKind = 'currency' | 'item' | 'badge' | 'any';

export interface EconomyOption {
  id: string;
  name: string;
  kind: 'currency' | 'item' | 'badge';
  /** Named by the catalog or a balance, not defined (name = id). */
  implied: boolean;
}

const economyQueryKey = (appId: string) => ['admin', 'apps', appId, 'economy'] as const;

/** The app's currencies, items and badges a field of `kind` may name (see the header for `source`). */
export function useEconomyOptions(appId: string | undefined, source: 'draft' | 'live' = 'draft') {
  const economy = useQuery({ queryKey: economyQueryKey(appId ?? ''), queryFn: () => adminFetch<Economy>(appPath(appId!, 'economy')), enabled: !!appId });
  const draft = useDraft(source === 'draft' ? appId : undefined);
  const waitingForDraft = source === 'draft' && draft.isLoading;
  const options = React.useMemo<EconomyOption[] | undefined>(() => {
    if (!economy.data || waitingForDraft) return undefined;
    const catalog = source === 'draft' ? draft.data?.catalog : undefined;
    const currencies = catalog?.currencies
      ? catalog.currencies.map((c) => ({ id: c.id, name: c.name, kind: 'currency' as const, implied: false }))
      : economy.data.currencies.map((c) => ({ id: c.id, name: c.name, kind: 'currency' as const, implied: c.implied }));
    const items = catalog?.items
      ? catalog.items.map((d) => ({ id: d.id, name: d.name, kind: d.kind, implied: false }))
      : economy.data.items.map((d) => ({ id: d.id, name: d.name, kind: d.kind, implied: d.implied }));
    const byName = (a: EconomyOption, b: EconomyOption) => a.name.localeCompare(b.name, 'en') || (a.id < b.id ? -1 : 1);
    return [...currencies.sort(byName), ...items.sort(byName)];
  }, [economy.data, draft.data, source, waitingForDraft]);
  return { options, error: economy.error ?? (source === 'draft' ? draft.error : null) };
}

const KIND_NOUN = { currency: 'currencies', item: 'items', badge: 'badges', any: 'currencies, items or badges' } as const;
const GROUP_LABEL = { currency: 'Currencies', item: 'Items', badge: 'Badges' } as const;

type TriggerProps = Omit<React.ComponentProps<typeof SelectTrigger>, 'value' | 'onChange' | 'children'>;

export interface EconomyPickerProps extends TriggerProps {
  /** The id chosen ('' for none yet). */
  value: string;
  onChange(id: string): void;
  kind: EconomyKind;
  'aria-label'?: string;
  /** The app (default: the app the console has selected). */
  appId?: string;
  /** "draft" (default) for the catalog editors, "live" for a grant. */
  source?: 'draft' | 'live';
  placeholder?: string;
}

function OptionText({ option }: { option: Pick<EconomyOption, 'id' | 'name' | 'implied'> }) {
  return (
    <span className="flex min-w-0 items-baseline gap-2">
      <span className="truncate">{option.name}</span>{' '}
      <span className="font-mono text-xs text-muted-foreground">{option.id}</span>
      {option.implied && <span className="text-xs text-muted-foreground"> (not defined)</span>}
    </span>
  );
}

/**
 * A select of the app's defined ids of `kind`, each as display name + id. Extra props (id,
 * aria-invalid, aria-describedby from a form field, className, onBlur) go to the trigger.
 */
export function EconomyPicker({ value, onChange, kind, appId: appIdProp, source = 'draft', placeholder, ...triggerProps }: EconomyPickerProps) {
  const { app, apps, withApp } = useSelectedApp();
  const appId = appIdProp ?? app?.id;
  const appName = apps?.find((a) => a.id === appId)?.name ?? appId ?? 'This app';
  const { options, error } = useEconomyOptions(appId, source);
  const offered = React.useMemo(() => {
    const ofKind = (options ?? []).filter((o) => kind === 'any' || o.kind === kind);
    // In "any", an id both a currency and an item is offered once (as the currency).
    const seen = new Set<string>();
    return ofKind.filter((o) => (seen.has(o.id) ? false : (seen.add(o.id), true)));
  }, [options, kind]);
  const economyHref = appIdProp ? `/admin/economy?app=${encodeURIComponent(appIdProp)}` : withApp('/admin/economy');

  if (error) {
    return (
      <p role="alert" className="text-sm text-destructive">
        Could not load the app’s economy.
      </p>
    );
  }
  if (options && offered.length === 0 && !value) {
    return (
      <p className="rounded-md border border-dashed px-3 py-2 text-sm text-muted-foreground" data-testid="economy-picker-empty">
        {appName} defines no {KIND_NOUN[kind]} yet.{' '}
        <Link href={economyHref} className="font-medium text-foreground underline underline-offset-4">
          Define them on the Economy screen
        </Link>
        .
      </p>
    );
  }
  const known = offered.some((o) => o.id === value);
  const groups = (['currency', 'item', 'badge'] as const).map((k) => ({ kind: k, options: offered.filter((o) => o.kind === k) })).filter((g) => g.options.length > 0);
  return (
    <Select value={value} onValueChange={onChange} disabled={!options || triggerProps.disabled}>
      <SelectTrigger {...triggerProps} data-economy-kind={kind}>
        <SelectValue placeholder={!options ? 'Loading…' : (placeholder ?? `Choose one of the ${KIND_NOUN[kind]}`)} />
      </SelectTrigger>
      <SelectContent>
        {value && !known && (
          <SelectItem value={value} data-economy-id={value}>
            <span className="flex items-baseline gap-2">
              <span className="font-mono">{value}</span>{' '}
              <span className="text-xs text-destructive">not defined in this app</span>
            </span>
          </SelectItem>
        )}
        {groups.map((g) =>
          kind === 'any' ? (
            <SelectGroup key={g.kind}>
              <SelectLabel className="px-2 py-1 text-xs font-medium text-muted-foreground">{GROUP_LABEL[g.kind]}</SelectLabel>
              {g.options.map((o) => (
                <SelectItem key={o.id} value={o.id} data-economy-id={o.id}>
                  <OptionText option={o} />
                </SelectItem>
              ))}
            </SelectGroup>
          ) : (
            g.options.map((o) => (
              <SelectItem key={o.id} value={o.id} data-economy-id={o.id}>
                <OptionText option={o} />
              </SelectItem>
            ))
          ),
        )}
      </SelectContent>
    </Select>
  );
}
