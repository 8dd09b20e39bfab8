'use client';

// The mission form: a criteria builder (event name with suggestions, count,
// window, filter rows with the engine's operators), the reward, prerequisites,
// campaign, expiry and icon, beside a preview of the mission as a player sees
// it. Validated by the contract's missionSchema (the API's own), errors inline;
// saved into the app's draft (PUT …/draft/missions/:id), never live: the form
// opens the draft's version of the mission, or the live one when the draft has
// none. Before a change to a live mission is saved it says how many players
// have progress on it now.
import * as React from 'react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useFieldArray, useForm, type FieldErrors, type Resolver, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { PlusIcon, Trash2Icon, UsersIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, FormDescription, FormField, FormItem, FormMessage } from '@/components/ui/form';
import { ControlledFormField, NumberFormField, SelectFormField, TextareaFormField, TextFormField } from '@/components/ui/form-fields';
import { EconomyPicker, useEconomyOptions } from '@/components/console/economy-picker';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { adminFetch, ApiError, appPath, errorMessage } from '@/components/console/api';
import { useDraft, useDraftItems } from '@/components/console/draft';
import { useSelectedApp } from '@/components/console/use-selected-app';
import { MAX_REWARDS, missionSchema, type Mission } from '@/lib/contract/mission';
import type { MissionProgressCounts } from '@/lib/contract/release';
import {
  duplicateRows,
  emptyReward,
  emptyMissionForm,
  FILTER_OPERATORS,
  NO_CAMPAIGN,
  OPERATOR_LABELS,
  toFormValues,
  toMissionInput,
  describableMission,
  type MissionFormValues,
} from '@/lib/console/mission-form';
import { describeMission, targetLabel } from '@/lib/missions/describe-mission';
import { AudienceField } from '@/components/console/audience-field';
import { AggregateStreakFields } from './aggregate-streak-fields';
import { MissionPreview } from './mission-preview';
import { useRewardNames } from './use-reward-names';
import { WINDOW_LABELS } from './labels';
import { useCampaigns, useEventNames, useMission, useMissions, usePayloadFields } from './use-missions';
import { useIdFollowsName } from '@/lib/console/use-id-follows-name';
import { plainResolver, revealFirstError } from '@/lib/console/plain-errors';
import { useLeaveGuard } from '@/lib/console/use-leave-guard';
import { useBrowserValue } from '@/components/console/browser-store';
import { SuggestionLists } from '@/components/console/filter-rows';

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

const schemaResolver = zodResolver(missionSchema);

/** The form's values → the mission, validated by missionSchema; errors keep the mission's paths (the form's names). */
const missionResolver: Resolver<MissionFormValues, unknown, Mission> = async (values, context, options) => {
  const result = await (schemaResolver as unknown as Resolver<Record<string, unknown>, unknown, Mission>)(
    toMissionInput(values) as unknown as Record<string, unknown>,
    context,
    options as never,
  );
  // What the schema cannot say row by row: a blank path, a path and operator given twice.
  const rows: NonNullable<NonNullable<FieldErrors<MissionFormValues>['criteria']>['filterRows']> = [];
  let blank = false;
  // A row left wholly empty is not flagged while the form checks other fields (an added row, another edit):
  // only on save (every field is checked) or once its own path was left.
  const checked = new Set(options.names ?? []);
  values.criteria.filterRows.forEach((row, i) => {
    if (row.path.trim() !== '') return;
    if (row.value.trim() === '' && options.names !== undefined && !checked.has(`criteria.filterRows.${i}.path`)) return;
    blank = true;
    rows[i] = { path: { type: 'required', message: 'Enter the payload path to compare' } };
  });
  for (const i of duplicateRows(values.criteria.filterRows)) rows[i] = { ...rows[i], op: { type: 'duplicate', message: 'This path already has this operator' } };
  const bundleErrors = (result.errors as Record<string, unknown> | undefined)?.rewards;
  if (!blank && rows.length === 0 && !bundleErrors) return result as Awaited<ReturnType<Resolver<MissionFormValues, unknown, Mission>>>;
  const errors = { ...(result.errors as FieldErrors<MissionFormValues>) };
  if (bundleErrors) {
    // The bundle's errors (rewards.N) belong to the rows of the other rewards (extraRewards.N-1); rewards.0 is `reward`, which has its own.
    const extra: unknown[] = [];
    const list = bundleErrors as Record<string, unknown> & { message?: string; type?: string; ref?: unknown };
    for (const [key, value] of Object.entries(list)) {
      const i = Number(key);
      if (Number.isInteger(i) && i > 0) extra[i - 1] = (value as { kind?: unknown; message?: string }).message && !(value as { kind?: unknown }).kind ? { kind: value } : value;
    }
    delete (errors as Record<string, unknown>).rewards;
    if (extra.length > 0) (errors as Record<string, unknown>).extraRewards = extra;
    else if (list.message) (errors as Record<string, unknown>).extraRewards = { root: { type: list.type ?? 'custom', message: list.message } };
    if (!blank && rows.length === 0) return { values: {}, errors } as Awaited<ReturnType<Resolver<MissionFormValues, unknown, Mission>>>;
  }
  const criteria: Record<string, unknown> = { ...errors.criteria, filterRows: rows };
  // The schema's message about the same blank key would only repeat it.
  if (blank) delete criteria.filter;
  errors.criteria = criteria as FieldErrors<MissionFormValues>['criteria'];
  return { values: {}, errors };
};

/** The mission's fields by the labels the form shows them under, for the plain-words messages (lib/console/plain-errors.ts). */
const plainMissionResolver = plainResolver(missionResolver, (values: MissionFormValues) => ({
  title: 'Title',
  id: 'Mission ID',
  iconUrl: 'Icon URL',
  'criteria.eventName': 'Event name',
  // The target's label as its field shows it: Count, Total (a sum), Different values (distinct), … in a row (a streak).
  'criteria.count': targetLabel(describableMission(values).criteria),
  'criteria.window': 'Window',
  'criteria.filterRows.*.path': 'Payload path',
  'criteria.filterRows.*.value': 'Value',
  'reward.currency': 'Currency',
  'reward.amount': 'Amount',
  'reward.itemId': 'Item',
  'reward.quantity': 'Quantity',
  'reward.badgeId': 'Badge',
  expiresAt: 'Expiry',
}));

/** The filter row's labels: read by screen readers always, shown from the sm breakpoint. */
const ROW_LABEL = 'sr-only sm:not-sr-only sm:text-xs';

const OPERATOR_OPTIONS = FILTER_OPERATORS.map((op) => ({
  value: op,
  label: (
    <>
      {OPERATOR_LABELS[op]} <span className="font-mono text-xs text-muted-foreground">({op})</span>
    </>
  ),
}));

const VALUE_PLACEHOLDERS: Partial<Record<string, string>> = { exists: 'true or false', in: 'dust, mirage', nin: 'dust, mirage' };

const REWARD_KINDS = [
  { value: 'currency', label: 'Currency' },
  { value: 'item', label: 'Item' },
  { value: 'badge', label: 'Badge' },
];

/** Server validation messages read "path: message"; the path is a form field when it names one. */
/** The Criteria card's one-line summary, in the words of the measure chosen (count, sum or distinct). */
function criteriaDescription(op: string | undefined, field: string | undefined): string {
  const name = field?.trim() ? `“${field.trim()}”` : 'a payload field';
  if (op === 'sum') return `The mission completes when the values of ${name} in matching events add up to the target in the window.`;
  if (op === 'distinct') return `The mission completes when matching events carry this many different values of ${name} in the window.`;
  return 'The mission completes when the player sends this many matching events in the window.';
}

const FIELD_PATHS = new Set(['id', 'title', 'description', 'criteria.eventName', 'criteria.count', 'criteria.window', 'criteria.aggregate.field', 'reward.currency', 'reward.amount', 'reward.itemId', 'reward.quantity', 'reward.badgeId', 'campaignId', 'expiresAt', 'iconUrl', 'prerequisites']);

function Section({ title, description, children }: { title: string; description?: string; children: React.ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className="grid gap-5">{children}</CardContent>
    </Card>
  );
}

/** One reward's fields: its kind, then the picker and number of that kind. `prefix` is `reward` or `extraRewards.<i>`. */
function RewardFields({ form, prefix, index, kind }: { form: UseFormReturn<MissionFormValues, unknown, Mission>; prefix: 'reward' | `extraRewards.${number}`; index: number; kind: string | undefined }) {
  const { control } = form;
  // The first reward keeps its plain labels (Currency, Amount…); the others say which reward they belong to.
  const label = (text: string) => (index === 0 ? text : `${text} (reward ${index + 1})`);
  // A pick re-checks its field at once: an added row's error (set when the picker opened empty) goes as soon as an id is picked.
  const picked = (onChange: (v: string) => void, name: `${typeof prefix}.${'currency' | 'itemId' | 'badgeId'}`) => (v: string) => {
    onChange(v);
    if (index > 0) void form.trigger(name);
  };
  return (
    <div className="grid gap-5 sm:grid-cols-[12rem_minmax(0,1fr)_10rem]">
      <SelectFormField control={control} name={`${prefix}.kind`} label={label('Reward kind')} options={REWARD_KINDS} />
      {kind === 'currency' && (
        <>
          <ControlledFormField control={control} name={`${prefix}.currency`} label={label('Currency')} render={(field) => <EconomyPicker kind="currency" value={(field.value as string) ?? ''} onChange={picked(field.onChange, `${prefix}.currency`)} onBlur={field.onBlur} />} />
          <NumberFormField control={control} name={`${prefix}.amount`} label={label('Amount')} />
        </>
      )}
      {kind === 'item' && (
        <>
          <ControlledFormField control={control} name={`${prefix}.itemId`} label={label('Item')} render={(field) => <EconomyPicker kind="item" value={(field.value as string) ?? ''} onChange={picked(field.onChange, `${prefix}.itemId`)} onBlur={field.onBlur} />} />
          <NumberFormField control={control} name={`${prefix}.quantity`} label={label('Quantity')} />
        </>
      )}
      {kind === 'badge' && (
        <ControlledFormField control={control} name={`${prefix}.badgeId`} label={label('Badge')} render={(field) => <EconomyPicker kind="badge" value={(field.value as string) ?? ''} onChange={picked(field.onChange, `${prefix}.badgeId`)} onBlur={field.onBlur} />} />
      )}
    </div>
  );
}

export function MissionEditor({ missionId }: { missionId?: string }) {
  const editing = missionId !== undefined;
  const { app, withApp } = useSelectedApp();
  const appId = app?.id;
  const router = useRouter();
  const existing = useMission(appId, missionId);
  const allMissions = useMissions(appId);
  const draft = useDraft(appId);
  const items = useDraftItems(appId);
  const campaigns = useCampaigns(appId);
  const eventNames = useEventNames(appId);
  // The draft's version of the mission, when the draft has one (an added mission is only there).
  const inDraft = editing && draft.data ? draft.data.catalog.missions.find((m) => m.id === missionId) : undefined;
  const liveRecord = editing ? (allMissions.data ?? []).find((m) => m.id === missionId) : undefined;
  // Players with progress on it now: shown before a change to a live mission is saved.
  const progress = useQuery({
    queryKey: ['admin', 'apps', appId ?? '', 'missions', 'progress', missionId ?? ''],
    queryFn: () => adminFetch<MissionProgressCounts>(appPath(appId!, 'missions', missionId!, 'progress')),
    enabled: !!appId && !!liveRecord && !liveRecord.archived,
  });

  const form = useForm<MissionFormValues, unknown, Mission>({ resolver: plainMissionResolver, defaultValues: emptyMissionForm(), mode: 'onTouched' });
  const rows = useFieldArray({ control: form.control, name: 'criteria.filterRows' });
  const extraRewards = useFieldArray({ control: form.control, name: 'extraRewards' });
  const rewardNames = useRewardNames(appId);
  // Every value, on every change: the preview and the reward's fields follow the form.
  const values = form.watch();
  const { nameProps, idProps } = useIdFollowsName(form, editing);
  // A new mission's reward starts as the app's first currency (the picker offers only defined ones).
  const economy = useEconomyOptions(editing ? undefined : (appId ?? undefined));
  const firstCurrency = economy.options?.find((o) => o.kind === 'currency')?.id;
  React.useEffect(() => {
    if (editing || !firstCurrency || form.getValues('reward.currency')) return;
    form.setValue('reward.currency', firstCurrency);
  }, [editing, firstCurrency, form]);

  // Loaded once, when the draft is known: its version of the mission, else the live one.
  const [loaded, setLoaded] = React.useState(false);
  React.useEffect(() => {
    if (!editing || loaded || draft.data === undefined || draft.isFetching) return;
    const source = inDraft ?? (existing.isFetching ? undefined : existing.data);
    if (!source) return;
    setLoaded(true);
    form.reset(toFormValues(source));
  }, [editing, loaded, draft.data, draft.isFetching, inDraft, existing.data, existing.isFetching, form]);

  const listHref = withApp('/admin/missions');
  const draftHref = withApp('/admin/draft');
  const save = useMutation({
    mutationFn: async (mission: Mission) => {
      // A new mission never replaces one of the draft or of the live catalog (archived ones included).
      if (!editing && ((allMissions.data ?? []).some((m) => m.id === mission.id) || draft.data?.catalog.missions.some((m) => m.id === mission.id))) {
        throw new ApiError(409, 'conflict', `Mission "${mission.id}" exists already`);
      }
      await items.put('missions', mission.id, mission);
      return mission;
    },
    onSuccess: (saved) => {
      toast.success(`Saved “${saved.title}” to the draft`, { description: 'Players see it once the draft is published.', action: { label: 'Review & publish', onClick: () => router.push(draftHref) } });
      router.push(listHref);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'conflict') {
        form.setError('id', { message: 'A mission with this id exists already' });
        return;
      }
      const match = err instanceof ApiError && err.code === 'validation_error' ? /^([\w.]+): (.*)$/.exec(err.message) : null;
      if (match && FIELD_PATHS.has(match[1])) form.setError(match[1] as keyof MissionFormValues, { message: match[2] }, { shouldFocus: true });
      else form.setError('root', { message: errorMessage(err) });
    },
  });

  // Unsaved changes ask before the page is left; not once the save went through (the page moves to the list).
  useLeaveGuard(form.formState.isDirty && !save.isSuccess);

  // The draft's missions and campaigns when there is a draft (what the mission is saved beside), else live.
  const catalogMissions = draft.data ? draft.data.catalog.missions : (allMissions.data ?? []);
  const campaignList = draft.data ? draft.data.catalog.campaigns.map((c) => ({ ...c, missionIds: c.missionIds ?? [] })) : (campaigns.data ?? []);
  const otherMissions = catalogMissions.filter((m) => m.id !== missionId);
  const missionTitles = new Map(catalogMissions.map((m) => [m.id, m.title]));
  const filterError = (form.formState.errors.criteria as { filter?: { message?: string } } | undefined)?.filter?.message;
  const suggestions = eventNames.data ?? [];
  const listId = React.useId();
  // The browser's zone, read after hydration: the server (UTC) renders the page first, and the two must agree.
  const zone = useBrowserValue(browserTimeZone, null);
  const payloadFields = usePayloadFields(appId, values.criteria?.eventName ?? '');
  const rowListId = React.useId();
  const title = editing ? `Edit ${existing.data?.title ?? 'mission'}` : 'New mission';
  // The form's mission as describeMission reads it: the target's label and the window's hint (when it resets; the streak section says the rest) in its words.
  const described = describableMission(values);

  if (editing && (draft.error || (existing.error && draft.data !== undefined && !inDraft))) {
    return (
      <>
        <PageHeader title="Edit mission" breadcrumbs={[{ label: 'Missions', href: listHref }, { label: missionId }]} />
        <p role="alert" className="text-sm text-destructive">
          Could not load the mission: {errorMessage(draft.error ?? existing.error)}
        </p>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={title}
        description="What players do (the criteria), what they earn, and when it is available."
        breadcrumbs={[{ label: 'Console', href: withApp('/admin') }, { label: 'Missions', href: listHref }, { label: editing ? (missionId ?? '') : 'New' }]}
      />
      {editing && !loaded ? (
        <div className="grid gap-4" aria-busy>
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-64 w-full" />
        </div>
      ) : (
        <Form {...form}>
          <form
            aria-label={title}
            noValidate
            onSubmit={(e) => {
              const el = e.currentTarget;
              void form.handleSubmit((mission) => save.mutate(mission), () => revealFirstError(el))(e);
            }}
            className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]"
          >
            <div className="grid gap-6">
              <Section title="Basics">
                <div className="grid gap-5 sm:grid-cols-2">
                  <TextFormField
                    control={form.control}
                    name="title"
                    label="Title"
                    autoComplete="off"
                    placeholder="Win 3 ranked matches"
                    {...nameProps}
                  />
                  <TextFormField
                    control={form.control}
                    name="id"
                    label="Mission ID"
                    description={editing ? 'Ids never change (progress is kept under it).' : 'Letters, digits and _ . : - only; it cannot change later.'}
                    autoComplete="off"
                    spellCheck={false}
                    className="font-mono"
                    {...idProps}
                  />
                </div>
                <TextareaFormField control={form.control} name="description" label="Description" rows={2} placeholder="Shown to players under the title" />
                <TextFormField
                  control={form.control}
                  name="iconUrl"
                  label="Icon URL"
                  description="Optional; previewed on the right."
                  type="url"
                  autoComplete="off"
                  placeholder="https://cdn.example.com/icons/trophy.png"
                />
              </Section>

              <Section title="Criteria" description={criteriaDescription(values.criteria?.aggregate?.op, values.criteria?.aggregate?.field)}>
                <div className="grid gap-5 sm:grid-cols-[minmax(0,1fr)_8rem_12rem]">
                  <TextFormField
                    control={form.control}
                    name="criteria.eventName"
                    label="Event name"
                    description={suggestions.length > 0 ? 'Suggestions are the events this app has received lately.' : 'This app has received no event yet; type the name your game sends.'}
                    list={listId}
                    autoComplete="off"
                    spellCheck={false}
                    className="font-mono"
                    placeholder="match_won"
                  />
                  <NumberFormField control={form.control} name="criteria.count" label={targetLabel(described.criteria)} />
                  <SelectFormField
                    control={form.control}
                    name="criteria.window"
                    label="Window"
                    description={describeMission({ ...described, criteria: { ...described.criteria, streak: undefined } }).recurrence}
                    options={Object.entries(WINDOW_LABELS).map(([value, label]) => ({ value, label }))}
                  />
                </div>
                <datalist id={listId}>
                  {suggestions.map((s) => (
                    <option key={s.name} value={s.name} />
                  ))}
                </datalist>
                {suggestions.length > 0 && (
                  <div className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
                    <span>Recent events:</span>
                    {suggestions.slice(0, 8).map((s) => (
                      <Button
                        key={s.name}
                        type="button"
                        variant="outline"
                        size="sm"
                        className="h-6 px-2 font-mono text-xs"
                        aria-label={`Use event name ${s.name}`}
                        onClick={() => form.setValue('criteria.eventName', s.name, { shouldValidate: true, shouldDirty: true })}
                      >
                        {s.name}
                      </Button>
                    ))}
                  </div>
                )}

                <AggregateStreakFields form={form} />

                <fieldset className="grid gap-3">
                  <legend className="mb-1 text-sm font-medium">Filters</legend>
                  <p className="text-[13px] text-muted-foreground">
                    Every row must match the event’s payload. Paths use dots (<code className="font-mono">match.mode</code>); values read as JSON when they can (3, true, &quot;3&quot;), else as text; lists are comma-separated.
                  </p>
                  {rows.fields.length === 0 && <p className="text-sm text-muted-foreground">No filter: every event of this name counts.</p>}
                  {rows.fields.map((row, i) => (
                    <div key={row.id} className="grid items-start gap-2 rounded-lg border bg-muted/30 p-3 sm:grid-cols-[minmax(0,1fr)_9rem_minmax(0,1fr)_auto]" role="group" aria-label={`Filter ${i + 1}`}>
                      <TextFormField
                        control={form.control}
                        name={`criteria.filterRows.${i}.path`}
                        label="Payload path"
                        labelClassName={ROW_LABEL}
                        autoComplete="off"
                        spellCheck={false}
                        className="font-mono"
                        placeholder="mode"
                        list={`${rowListId}-paths`}
                        aria-label={`Filter ${i + 1} payload path`}
                      />
                      <SelectFormField
                        control={form.control}
                        name={`criteria.filterRows.${i}.op`}
                        label="Operator"
                        labelClassName={ROW_LABEL}
                        triggerLabel={`Filter ${i + 1} operator`}
                        options={OPERATOR_OPTIONS}
                      />
                      <TextFormField
                        control={form.control}
                        name={`criteria.filterRows.${i}.value`}
                        label="Value"
                        labelClassName={ROW_LABEL}
                        autoComplete="off"
                        spellCheck={false}
                        className="font-mono"
                        placeholder={VALUE_PLACEHOLDERS[values.criteria?.filterRows?.[i]?.op ?? 'eq'] ?? 'ranked'}
                        list={`${rowListId}-values-${i}`}
                        aria-label={`Filter ${i + 1} value`}
                      />
                      <Button type="button" variant="ghost" size="icon" className="sm:mt-6" aria-label={`Remove filter ${i + 1}`} onClick={() => rows.remove(i)}>
                        <Trash2Icon aria-hidden />
                      </Button>
                    </div>
                  ))}
                  <SuggestionLists id={rowListId} suggestions={payloadFields.data ?? []} rows={values.criteria?.filterRows ?? []} />
                  {filterError && (
                    <p role="alert" className="text-[13px] font-medium text-destructive">
                      {filterError.replace(/^Invalid input: /, '')}
                    </p>
                  )}
                  <div>
                    <Button type="button" variant="outline" size="sm" onClick={() => rows.append({ path: '', op: 'eq', value: '' }, { shouldFocus: true })}>
                      <PlusIcon aria-hidden />
                      Add filter
                    </Button>
                  </div>
                </fieldset>
              </Section>

              <Section title="Audience" description="Who this mission is for.">
                <FormField control={form.control} name="audience" render={({ field, fieldState }) => <AudienceField subject="mission" value={field.value} onChange={field.onChange} error={fieldState.error?.message} />} />
              </Section>

              <Section title="Rewards" description="Granted together once per completion, when the player claims it (up to 10).">
                <fieldset className="grid gap-4" aria-label="Rewards">
                  <RewardFields form={form} prefix="reward" index={0} kind={values.reward?.kind} />
                  {extraRewards.fields.map((field, i) => (
                    <div key={field.id} className="grid gap-2 border-t pt-4 sm:grid-cols-[minmax(0,1fr)_auto]">
                      <RewardFields form={form} prefix={`extraRewards.${i}`} index={i + 1} kind={values.extraRewards?.[i]?.kind} />
                      <Button type="button" variant="ghost" size="icon" className="sm:mt-6" aria-label={`Remove reward ${i + 2}`} onClick={() => extraRewards.remove(i)}>
                        <Trash2Icon aria-hidden />
                      </Button>
                    </div>
                  ))}
                  {form.formState.errors.extraRewards?.root?.message && (
                    <p role="alert" className="text-[13px] font-medium text-destructive">
                      {form.formState.errors.extraRewards.root.message}
                    </p>
                  )}
                  <div className="flex items-center gap-3">
                    <Button type="button" variant="outline" size="sm" disabled={extraRewards.fields.length >= MAX_REWARDS - 1} onClick={() => extraRewards.append(emptyReward(), { shouldFocus: false })}>
                      <PlusIcon aria-hidden />
                      Add reward
                    </Button>
                    {extraRewards.fields.length > 0 && <span className="text-sm text-muted-foreground">A claim grants all of them, or none.</span>}
                  </div>
                </fieldset>
              </Section>

              <Section title="Availability" description="Which campaign it belongs to, what must come first, and when it stops counting.">
                <div className="grid gap-5 sm:grid-cols-2">
                  <SelectFormField
                    control={form.control}
                    name="campaignId"
                    label="Campaign"
                    description="A campaign’s missions count only while it is live."
                    options={[{ value: NO_CAMPAIGN, label: 'No campaign (always available)' }, ...campaignList.map((c) => ({ value: c.id, label: c.title }))]}
                  />
                  <TextFormField
                    control={form.control}
                    name="expiresAt"
                    label="Expires"
                    description={`Your time zone${zone ? ` (${zone})` : ''}. Events at or after it do not count; empty: never.`}
                    type="datetime-local"
                  />
                </div>
                <FormField
                  control={form.control}
                  name="prerequisites"
                  render={({ field }) => (
                    <FormItem>
                      <fieldset className="grid gap-2">
                        <legend className="mb-1 text-sm font-medium">Prerequisites</legend>
                        <FormDescription>Missions the player must have claimed before this one counts.</FormDescription>
                        {otherMissions.length === 0 ? (
                          <p className="text-sm text-muted-foreground">No other mission in this app yet.</p>
                        ) : (
                          <div className="grid max-h-48 gap-1 overflow-y-auto rounded-md border p-2 sm:grid-cols-2">
                            {otherMissions.map((m) => {
                              const checked = field.value.includes(m.id);
                              return (
                                <label key={m.id} className="flex cursor-pointer items-start gap-2 rounded px-2 py-1 text-sm hover:bg-muted">
                                  <input
                                    type="checkbox"
                                    className="mt-0.5 size-4 shrink-0 accent-(--color-primary)"
                                    checked={checked}
                                    onChange={() => field.onChange(checked ? field.value.filter((id) => id !== m.id) : [...field.value, m.id])}
                                  />
                                  <span className="grid min-w-0">
                                    <span className="break-words">{m.title}</span>
                                    <span className="font-mono text-xs break-all text-muted-foreground">{m.id}</span>
                                    {m.archived && <span className="text-xs text-muted-foreground"> (archived)</span>}
                                  </span>
                                </label>
                              );
                            })}
                          </div>
                        )}
                      </fieldset>
                      <FormMessage />
                    </FormItem>
                  )}
                />
              </Section>

              {progress.data && <ProgressNotice counts={progress.data} />}
              {form.formState.errors.root && (
                <p role="alert" className="text-sm text-destructive">
                  {form.formState.errors.root.message}
                </p>
              )}
              <div className="flex flex-wrap justify-end gap-2">
                <Button type="button" variant="outline" asChild>
                  <Link href={listHref}>Cancel</Link>
                </Button>
                <Button type="submit" disabled={save.isPending || !app || draft.data === undefined}>
                  Save to draft
                </Button>
              </div>
            </div>
            <div className="lg:sticky lg:top-6">
              <MissionPreview values={values} campaigns={campaignList} missionTitles={missionTitles} names={rewardNames} />
            </div>
          </form>
        </Form>
      )}
    </>
  );
}

/**
 * Players with progress on a live mission now, and what a change does to them
 * (docs/api.md "Drafts and releases": a changed criterion applies from each
 * player's next qualifying event; nothing earned is taken back).
 */
function ProgressNotice({ counts }: { counts: MissionProgressCounts }) {
  const { players, active, completed, claimed } = counts;
  const done = completed + claimed;
  const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
  return (
    <Alert aria-label="Players with progress on this mission">
      <UsersIcon aria-hidden />
      <AlertTitle>
        {players === 0
          ? 'No player has progress on this mission yet'
          : `${plural(players, 'player has', 'players have')} progress on this mission now${done > 0 ? `, ${done.toLocaleString()} completed` : ''}`}
      </AlertTitle>
      {players > 0 && (
        <AlertDescription>
          <p>
            {active.toLocaleString()} counting, {completed.toLocaleString()} completed and not claimed, {claimed.toLocaleString()} claimed. A change applies once the draft is
            published, from each player&rsquo;s next qualifying event: a higher target leaves completed ones completed (and claimable); a lower one completes a player at
            their next qualifying event; nothing claimed is taken back.
          </p>
        </AlertDescription>
      )}
    </Alert>
  );
}
