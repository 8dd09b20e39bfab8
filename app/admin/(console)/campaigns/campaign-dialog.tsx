'use client';

// Create or edit a campaign, validated with the contract's campaignFormSchema:
// title, id, description, start and end in the reader's time zone (named,
// with UTC beside), mission assignment, banner URL with the image previewed,
// and a theme (a preset, its own colours, or none), beside a live preview.
import * as React from 'react';
import { useFieldArray, useForm, useWatch, type Control } from 'react-hook-form';
import { PlusIcon, Trash2Icon } from 'lucide-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Form, FormField, FormItem, FormMessage } from '@/components/ui/form';
import { ControlledFormField, TextareaFormField, TextFormField } from '@/components/ui/form-fields';
import { Button } from '@/components/ui/button';
import { Input, inputClass } from '@/components/ui/input';
import { budgetRows, BudgetMeter } from '@/components/console/campaign-budget';
import { Label } from '@/components/ui/label';
import { ApiError, errorMessage } from '@/components/console/api';
import { useDraftItems } from '@/components/console/draft';
import { AudienceField } from '@/components/console/audience-field';
import { EconomyPicker } from '@/components/console/economy-picker';
import { CampaignCardPreview, type PreviewTheme } from '@/components/console/campaign-card-preview';
import { timeZoneLabel } from '@/components/console/campaign-phase';
import { ColorField } from '@/components/console/color-field';
import { DialogFormFooter } from '@/components/console/dialog-form-footer';
import { cn } from '@/lib/cn';
import { campaignFormSchema, type CampaignInput } from '@/lib/contract/campaign';
import type { CampaignRecord, ThemeRecord } from '@/lib/contract/catalog-admin';
import type { Mission } from '@/lib/contract/mission';
import { fromLocalInput, toLocalInput } from '@/lib/console/local-time';
import { useIdFollowsName } from '@/lib/console/use-id-follows-name';
import { plainResolver, revealFirstError } from '@/lib/console/plain-errors';
import { confirmDiscard, useLeaveGuard } from '@/lib/console/use-leave-guard';

const DAY = 86_400_000;

const campaignResolver = plainResolver(zodResolver(campaignFormSchema), {
  title: 'Title',
  id: 'Campaign ID',
  startAt: 'Start',
  endAt: 'End',
  bannerUrl: 'Banner URL',
  themeId: 'Theme preset',
  'budget.*.currency': 'Currency',
  'budget.*.amount': 'Budget',
});
type ThemeMode = 'none' | 'preset' | 'own';

function utcLabel(ms: number | undefined): string | null {
  if (ms === undefined || !Number.isFinite(ms)) return null;
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function newCampaign(): CampaignInput {
  // Tomorrow 00:00 local to a week later: a typical first draft.
  const start = new Date();
  start.setHours(0, 0, 0, 0);
  const startAt = start.getTime() + DAY;
  return { id: '', title: '', description: '', startAt, endAt: startAt + 7 * DAY, bannerUrl: '', missionIds: [], archived: false };
}

function toInput(c: CampaignRecord): CampaignInput {
  const { version: _v, createdAt: _c, updatedAt: _u, budgetSpent: _s, budgetAlerts: _a, budgetRefusals: _r, ...fields } = c;
  return fields;
}

const alertDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Payout budgets per currency: what the campaign's missions may grant in total; with what was spent and the alerts when editing. */
function BudgetFields({ control, editing }: { control: Control<CampaignInput>; editing: CampaignRecord | null }) {
  const { fields, append, remove } = useFieldArray({ control, name: 'budget' });
  const alerts = editing?.budgetAlerts ?? [];
  return (
    <fieldset className="space-y-3 rounded-md border p-3">
      <legend className="px-1 text-sm font-medium">Payout budget</legend>
      <p className="text-sm text-muted-foreground">
        The most the campaign’s missions may grant of a currency, over all players. A claim that would pass it is refused (nothing is granted); alerts are recorded at 80&nbsp;% and 100&nbsp;%.
      </p>
      {fields.map((f, i) => (
        <div key={f.id} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
          <ControlledFormField control={control} name={`budget.${i}.currency`} label="Currency" render={(field) => <EconomyPicker kind="currency" value={field.value ?? ''} onChange={field.onChange} onBlur={field.onBlur} />} />
          <ControlledFormField
            control={control}
            name={`budget.${i}.amount`}
            label="Budget"
            render={(field) => (
              <Input
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                value={Number.isFinite(field.value) ? field.value : ''}
                onChange={(e) => field.onChange(e.target.value === '' ? undefined : Number(e.target.value))}
                onBlur={field.onBlur}
                name={field.name}
                ref={field.ref}
              />
            )}
          />
          <Button type="button" variant="ghost" size="icon" className="mt-6" aria-label={`Remove the budget line ${i + 1}`} onClick={() => remove(i)}>
            <Trash2Icon aria-hidden />
          </Button>
        </div>
      ))}
      <Button type="button" variant="outline" size="sm" onClick={() => append({ currency: '', amount: 1000 })}>
        <PlusIcon aria-hidden /> Add a currency budget
      </Button>
      {editing && budgetRows(editing).length > 0 && (
        <div className="space-y-2 border-t pt-3">
          <p className="text-sm font-medium">Spent so far</p>
          {budgetRows(editing).map((row) => (
            <BudgetMeter key={row.currency} row={row} campaignTitle={editing.title} />
          ))}
          {alerts.length > 0 && (
            <ul className="space-y-1 text-sm text-muted-foreground" aria-label="Budget alerts">
              {alerts.map((a) => (
                <li key={`${a.currency}-${a.threshold}`}>
                  {a.threshold} % of the {a.currency} budget reached on {alertDate.format(a.at)} ({a.spent} of {a.budget}, by a claim of {a.missionId})
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </fieldset>
  );
}

function DateTimeField({ control, name, label }: { control: Control<CampaignInput>; name: 'startAt' | 'endAt'; label: string }) {
  const value = useWatch({ control, name });
  return (
    <ControlledFormField
      control={control}
      name={name}
      label={label}
      description={`${timeZoneLabel(value)}${utcLabel(value) ? ` · ${utcLabel(value)}` : ''}`}
      render={(field) => (
        <Input type="datetime-local" value={toLocalInput(field.value)} onChange={(e) => field.onChange(fromLocalInput(e.target.value) ?? undefined)} onBlur={field.onBlur} name={field.name} ref={field.ref} />
      )}
    />
  );
}

function MissionPicker({ control, missions, campaignId, campaignTitles }: { control: Control<CampaignInput>; missions: Mission[] | undefined; campaignId: string; campaignTitles: Map<string, string> }) {
  return (
    <FormField
      control={control}
      name="missionIds"
      render={({ field }) => {
        const selected = new Set(field.value ?? []);
        const shown = (missions ?? []).filter((m) => !m.archived || selected.has(m.id));
        return (
          <FormItem>
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium">Missions</legend>
              {missions === undefined ? (
                <p className="text-sm text-muted-foreground">Loading the app’s missions…</p>
              ) : shown.length === 0 ? (
                <p className="text-sm text-muted-foreground">This app has no mission yet.</p>
              ) : (
                <ul className="max-h-48 space-y-1 overflow-y-auto rounded-md border p-2">
                  {shown.map((m) => {
                    const elsewhere = m.campaignId && m.campaignId !== campaignId ? (campaignTitles.get(m.campaignId) ?? m.campaignId) : null;
                    const id = `mission-pick-${m.id}`;
                    return (
                      <li key={m.id} className="flex items-start gap-2 rounded px-1 py-1 hover:bg-accent">
                        <input
                          id={id}
                          type="checkbox"
                          className="mt-0.5 size-4 accent-primary"
                          checked={selected.has(m.id)}
                          onChange={(e) => {
                            const next = new Set(selected);
                            if (e.target.checked) next.add(m.id);
                            else next.delete(m.id);
                            field.onChange([...next]);
                          }}
                        />
                        <label htmlFor={id} className="min-w-0 text-sm leading-tight">
                          {m.title} <span className="font-mono text-xs text-muted-foreground">{m.id}</span>
                          {elsewhere && <span className="block text-xs text-muted-foreground">now in {elsewhere}: moves here</span>}
                        </label>
                      </li>
                    );
                  })}
                </ul>
              )}
            </fieldset>
            <FormMessage />
          </FormItem>
        );
      }}
    />
  );
}

const OWN_COLORS = [
  { key: 'primaryColor', label: 'Primary colour' },
  { key: 'accentColor', label: 'Accent colour' },
  { key: 'backgroundColor', label: 'Background colour' },
  { key: 'textColor', label: 'Text colour' },
] as const;

export function CampaignDialog({
  appId,
  open,
  editing,
  themes,
  missions,
  campaigns,
  onClose,
}: {
  appId: string;
  open: boolean;
  editing: CampaignRecord | null;
  themes: ThemeRecord[] | undefined;
  missions: Mission[] | undefined;
  campaigns: CampaignRecord[] | undefined;
  onClose(): void;
}) {
  const items = useDraftItems(appId);
  const form = useForm<CampaignInput>({ resolver: campaignResolver, defaultValues: newCampaign(), mode: 'onTouched' });
  const dirty = open && form.formState.isDirty;
  useLeaveGuard(dirty);
  /** Cancel, Escape, the close button and a click outside: asks first when something was changed. */
  const close = () => {
    if (confirmDiscard(dirty)) onClose();
  };
  const { nameProps, idProps } = useIdFollowsName(form, editing !== null, open);
  const [mode, setMode] = React.useState<ThemeMode>('none');

  // Each opening starts from the campaign edited (or a new one): the theme mode
  // adjusted while rendering, as React advises; the form (react-hook-form's own store) in an effect.
  const [shown, setShown] = React.useState<{ open: boolean; editing: CampaignRecord | null }>({ open: false, editing: null });
  if (open && (!shown.open || shown.editing !== editing)) {
    setShown({ open, editing });
    setMode(editing?.themeId ? 'preset' : editing?.theme ? 'own' : 'none');
  } else if (!open && shown.open) {
    setShown({ open, editing });
  }
  React.useEffect(() => {
    if (!open) return;
    form.reset(editing ? toInput(editing) : newCampaign());
  }, [open, editing, form]);

  const values = useWatch({ control: form.control });
  const campaignTitles = React.useMemo(() => new Map((campaigns ?? []).map((c) => [c.id, c.title])), [campaigns]);

  const chooseMode = (next: ThemeMode) => {
    setMode(next);
    const opts = { shouldDirty: true, shouldValidate: form.formState.isSubmitted };
    if (next !== 'preset') form.setValue('themeId', undefined, opts);
    if (next !== 'own') form.setValue('theme', undefined, opts);
    if (next === 'preset' && !form.getValues('themeId') && themes?.[0]) form.setValue('themeId', themes[0].id, opts);
    if (next === 'own' && !form.getValues('theme')) form.setValue('theme', { primaryColor: '#7c3aed' }, opts);
  };

  const previewTheme: PreviewTheme | undefined =
    mode === 'preset' ? themes?.find((t) => t.id === values.themeId) : mode === 'own' ? (values.theme as PreviewTheme | undefined) : undefined;

  // Saved into the draft (PUT …/draft/campaigns/:id, the picked missionIds with it), never live.
  const save = useMutation({
    mutationFn: async (input: CampaignInput) => {
      if (!editing && (campaigns ?? []).some((c) => c.id === input.id)) throw new ApiError(409, 'conflict', `Campaign "${input.id}" exists already`);
      await items.put('campaigns', input.id, input);
      return input;
    },
    onSuccess: (campaign) => {
      toast.success(`Campaign “${campaign.title}” saved to the draft`, { description: 'Players see it once the draft is published.' });
      onClose();
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'conflict' && !editing) {
        form.setError('id', { message: 'A campaign with this id exists already' });
        return;
      }
      form.setError('root', { message: errorMessage(err) });
      toast.error(errorMessage(err));
    },
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent className="max-h-[calc(100vh-2rem)] overflow-y-auto sm:max-w-4xl">
        <DialogHeader>
          <DialogTitle>{editing ? `Edit campaign “${editing.title}”` : 'New campaign'}</DialogTitle>
          <DialogDescription>Players see it in /v1 from its start to its end; its missions count only in between.</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={(e) => {
            const el = e.currentTarget;
            void form.handleSubmit((v) => save.mutate(v), () => revealFirstError(el))(e);
          }} noValidate className="grid gap-6 md:grid-cols-[1fr_20rem]">
            <div className="grid content-start gap-4">
              <TextFormField
                control={form.control}
                name="title"
                label="Title"
                autoComplete="off"
                placeholder="Spring Festival"
                {...nameProps}
              />
              <TextFormField
                control={form.control}
                name="id"
                label="Campaign ID"
                description={`Missions and games refer to it by this id${editing ? '; it cannot change' : ''}.`}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                {...idProps}
              />
              <TextareaFormField control={form.control} name="description" label="Description" rows={2} />
              <div className="grid gap-4 sm:grid-cols-2">
                <DateTimeField control={form.control} name="startAt" label="Starts" />
                <DateTimeField control={form.control} name="endAt" label="Ends" />
              </div>
              <MissionPicker control={form.control} missions={missions} campaignId={values.id ?? ''} campaignTitles={campaignTitles} />
              <TextFormField
                control={form.control}
                name="bannerUrl"
                label="Banner URL"
                description="The image shows in the preview as players would see it."
                type="url"
                inputMode="url"
                autoComplete="off"
                placeholder="https://cdn.example.com/banner.png"
              />
              <FormField control={form.control} name="audience" render={({ field, fieldState }) => <AudienceField subject="campaign" value={field.value} onChange={field.onChange} error={fieldState.error?.message} />} />
              <fieldset className="grid gap-3">
                <legend className="mb-2 text-sm font-medium">Theme</legend>
                <div className="flex flex-wrap gap-4" role="radiogroup" aria-label="Theme">
                  {(
                    [
                      ['none', 'No theme'],
                      ['preset', 'A theme preset'],
                      ['own', 'Own colours'],
                    ] as const
                  ).map(([value, label]) => (
                    <label key={value} className="flex items-center gap-2 text-sm">
                      <input type="radio" name="theme-mode" value={value} checked={mode === value} onChange={() => chooseMode(value)} className="size-4 accent-primary" />
                      {label}
                    </label>
                  ))}
                </div>
                {mode === 'preset' && (
                  <ControlledFormField
                    control={form.control}
                    name="themeId"
                    label="Theme preset"
                    render={(field) => (
                      <select className={cn(inputClass, 'pr-8')} value={field.value ?? ''} onChange={(e) => field.onChange(e.target.value || undefined)} onBlur={field.onBlur} name={field.name} ref={field.ref}>
                        {(themes ?? []).length === 0 && <option value="">No preset yet (create one under Themes)</option>}
                        {(themes ?? []).map((t) => (
                          <option key={t.id} value={t.id}>
                            {t.name} ({t.id})
                          </option>
                        ))}
                      </select>
                    )}
                  />
                )}
                {mode === 'own' && (
                  <div className="grid gap-3 sm:grid-cols-2">
                    {OWN_COLORS.map(({ key, label }) => (
                      <ControlledFormField
                        key={key}
                        control={form.control}
                        name={`theme.${key}` as 'theme.primaryColor'}
                        label={label}
                        render={(field) => (
                          <ColorField
                            label={label}
                            optional={key !== 'primaryColor'}
                            value={field.value as string | undefined}
                            onChange={(v) => {
                              // An own theme is a loose object: a cleared colour is left out, not sent empty.
                              const theme = { ...(form.getValues('theme') ?? { primaryColor: '#7c3aed' }) } as Record<string, unknown>;
                              if (v === undefined) delete theme[key];
                              else theme[key] = v;
                              form.setValue('theme', theme as CampaignInput['theme'], { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
                            }}
                            onBlur={field.onBlur}
                            name={field.name}
                            ref={field.ref}
                          />
                        )}
                      />
                    ))}
                  </div>
                )}
              </fieldset>
              <BudgetFields control={form.control} editing={editing} />
              <div className="flex items-center gap-2">
                <input
                  id="campaign-archived"
                  type="checkbox"
                  className="size-4 accent-primary"
                  checked={values.archived ?? false}
                  onChange={(e) => form.setValue('archived', e.target.checked, { shouldDirty: true })}
                />
                <Label htmlFor="campaign-archived" className="font-normal">
                  Archived (hidden from players whatever its dates)
                </Label>
              </div>
            </div>
            <div className="md:sticky md:top-0 md:self-start">
              <CampaignCardPreview
                title={values.title ?? ''}
                description={values.description}
                bannerUrl={values.bannerUrl}
                theme={previewTheme}
                startAt={values.startAt}
                endAt={values.endAt}
                missions={missions === undefined ? undefined : (values.missionIds ?? []).flatMap((id) => missions.find((m) => m.id === id) ?? [])}
              />
            </div>
            <DialogFormFooter submitLabel="Save to draft" pending={save.isPending} onCancel={close} error={form.formState.errors.root?.message} className="md:col-span-2" />
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
