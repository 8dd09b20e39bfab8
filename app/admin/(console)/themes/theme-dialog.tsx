'use client';

// Create or edit a theme preset: name, id, four colours, validated with the
// contract's themePresetSchema, beside a live preview of a campaign card.
import * as React from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { ControlledFormField, TextFormField } from '@/components/ui/form-fields';
import { ApiError, errorMessage } from '@/components/console/api';
import { useDraftItems } from '@/components/console/draft';
import { CampaignCardPreview } from '@/components/console/campaign-card-preview';
import { ColorField } from '@/components/console/color-field';
import { DialogFormFooter } from '@/components/console/dialog-form-footer';
import type { ThemeRecord } from '@/lib/contract/catalog-admin';
import { themePresetSchema, type ThemeColorField, type ThemePresetInput } from '@/lib/contract/theme';
import { useIdFollowsName } from '@/lib/console/use-id-follows-name';
import { plainResolver, revealFirstError } from '@/lib/console/plain-errors';
import { confirmDiscard, useLeaveGuard } from '@/lib/console/use-leave-guard';

const COLOR_FIELDS: { name: ThemeColorField; label: string; hint: string }[] = [
  { name: 'primaryColor', label: 'Primary colour', hint: 'Buttons, progress bars, highlights.' },
  { name: 'accentColor', label: 'Accent colour', hint: 'Badges and secondary highlights.' },
  { name: 'backgroundColor', label: 'Background colour', hint: 'The card or screen behind the campaign.' },
  { name: 'textColor', label: 'Text colour', hint: 'Text on the background (black or white when not set).' },
];

const themeResolver = plainResolver(zodResolver(themePresetSchema), { name: 'Name', id: 'Theme ID', ...Object.fromEntries(COLOR_FIELDS.map((f) => [f.name, f.label])) });

const EMPTY: ThemePresetInput = { id: '', name: '', primaryColor: '#7c3aed' };

function toInput(theme: ThemeRecord): ThemePresetInput {
  const { id, name, primaryColor, accentColor, backgroundColor, textColor } = theme;
  return { id, name, primaryColor, accentColor, backgroundColor, textColor };
}

/** `editing`: null for a new preset; `open` says whether the dialog shows. */
export function ThemeDialog({ appId, open, editing, takenIds, onClose }: { appId: string; open: boolean; editing: ThemeRecord | null; takenIds: string[]; onClose(): void }) {
  const items = useDraftItems(appId);
  const form = useForm<ThemePresetInput>({ resolver: themeResolver, defaultValues: EMPTY, mode: 'onTouched' });
  const dirty = open && form.formState.isDirty;
  useLeaveGuard(dirty);
  /** Cancel, Escape, the close button and a click outside: asks first when something was changed. */
  const close = () => {
    if (confirmDiscard(dirty)) onClose();
  };
  const { nameProps, idProps } = useIdFollowsName(form, editing !== null, open);

  React.useEffect(() => {
    if (!open) return;
    form.reset(editing ? toInput(editing) : EMPTY);
  }, [open, editing, form]);

  const values = useWatch({ control: form.control });

  // Saved into the draft (PUT …/draft/themes/:id), never live.
  const save = useMutation({
    mutationFn: async (input: ThemePresetInput) => {
      if (!editing && takenIds.includes(input.id)) throw new ApiError(409, 'conflict', `Theme "${input.id}" exists already`);
      await items.put('themes', input.id, input);
      return input;
    },
    onSuccess: (theme) => {
      toast.success(`Theme “${theme.name}” saved to the draft`, { description: 'Campaigns show it once the draft is published.' });
      onClose();
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'conflict' && !editing) form.setError('id', { message: 'A theme with this id exists already' });
      else {
        form.setError('root', { message: errorMessage(err) });
        toast.error(errorMessage(err));
      }
    },
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent className="max-h-[calc(100vh-2rem)] overflow-y-auto sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>{editing ? `Edit theme “${editing.name}”` : 'New theme'}</DialogTitle>
          <DialogDescription>
            {editing && editing.usedBy.length > 0
              ? `Used by ${editing.usedBy.length} campaign${editing.usedBy.length > 1 ? 's' : ''}: players see the change at once.`
              : 'A named set of colours that campaigns can use.'}
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={(e) => {
            const el = e.currentTarget;
            void form.handleSubmit((v) => save.mutate(v), () => revealFirstError(el))(e);
          }} noValidate className="grid gap-6 md:grid-cols-[1fr_18rem]">
            <div className="grid content-start gap-4">
              <TextFormField
                control={form.control}
                name="name"
                label="Name"
                autoComplete="off"
                placeholder="Summer night"
                {...nameProps}
              />
              <TextFormField
                control={form.control}
                name="id"
                label="Theme ID"
                description={`Campaigns and the catalog document refer to it by this id${editing ? '; it cannot change' : ''}.`}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                {...idProps}
              />
              {COLOR_FIELDS.map(({ name, label, hint }) => (
                <ControlledFormField
                  key={name}
                  control={form.control}
                  name={name}
                  label={label}
                  description={hint}
                  render={(field) => (
                    <ColorField label={label} optional={name !== 'primaryColor'} value={field.value} onChange={field.onChange} onBlur={field.onBlur} name={field.name} ref={field.ref} />
                  )}
                />
              ))}
            </div>
            <div className="md:sticky md:top-0 md:self-start">
              <CampaignCardPreview
                title={values.name ? `${values.name} campaign` : 'Campaign title'}
                description="Play ranked matches this week for a limited-time skin."
                theme={values}
              />
            </div>
            <DialogFormFooter submitLabel="Save to draft" pending={save.isPending} onCancel={close} error={form.formState.errors.root?.message} className="md:col-span-2" />
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
