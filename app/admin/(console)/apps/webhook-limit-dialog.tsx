'use client';

// "Webhook limit": an app's own limit on POST /v1/webhook/incoming, in events
// per minute, checked with the API's own schema before it is sent; empty means
// the default. Saved with PATCH /api/admin/apps/:appId (audited).
import * as React from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { DialogFormFooter } from '@/components/console/dialog-form-footer';
import { adminFetch, errorMessage, queryKeys } from '@/components/console/api';
import { DEFAULT_WEBHOOK_EVENTS_PER_MINUTE, webhookEventsPerMinuteSchema, type PublicApp } from '@/lib/contract/app';

const numberFormat = new Intl.NumberFormat('en-US');

/** The limit as the Apps screen shows it: "60,000 / min (default)". */
export function webhookLimitLabel(app: PublicApp): string {
  const own = app.webhookEventsPerMinute;
  return own === null ? `${numberFormat.format(DEFAULT_WEBHOOK_EVENTS_PER_MINUTE)} / min (default)` : `${numberFormat.format(own)} / min`;
}

/** The field's text as the API's value: empty is null (the default); anything else must be a whole number. */
function parseLimit(text: string): { value: number | null } | { error: string } {
  const trimmed = text.trim().replaceAll(',', '');
  const parsed = webhookEventsPerMinuteSchema.safeParse(trimmed === '' ? null : Number(trimmed));
  if (!parsed.success) return { error: parsed.error.issues[0]?.message.replace(/^webhookEventsPerMinute: /, '') ?? 'Enter a whole number' };
  return { value: parsed.data };
}

export function WebhookLimitDialog({ app, onClose }: { app: PublicApp | null; onClose(): void }) {
  const queryClient = useQueryClient();
  const [text, setText] = React.useState('');
  const [error, setError] = React.useState<string | undefined>(undefined);
  // Each opening starts from the app's current value (state adjusted while rendering, not in an effect).
  const [shownApp, setShownApp] = React.useState(app);
  if (shownApp !== app) {
    setShownApp(app);
    setText(app?.webhookEventsPerMinute == null ? '' : String(app.webhookEventsPerMinute));
    setError(undefined);
  }
  const save = useMutation({
    mutationFn: ({ target, value }: { target: PublicApp; value: number | null }) =>
      adminFetch<{ app: PublicApp }>(`/api/admin/apps/${encodeURIComponent(target.id)}`, { method: 'PATCH', body: { webhookEventsPerMinute: value } }),
    onSuccess: ({ app: saved }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.apps });
      toast.success(`Webhook limit of ${saved.name}: ${webhookLimitLabel(saved)}`);
      onClose();
    },
    onError: (err) => setError(errorMessage(err)),
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!app) return;
    const parsed = parseLimit(text);
    if ('error' in parsed) setError(parsed.error);
    else save.mutate({ target: app, value: parsed.value });
  };
  return (
    <Dialog open={app !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Webhook limit of {app?.name}</DialogTitle>
          <DialogDescription>
            Events (not deliveries) per minute this app’s backend may send to POST /v1/webhook/incoming; more answer 429 with Retry-After. Leave it empty for the default,{' '}
            {numberFormat.format(DEFAULT_WEBHOOK_EVENTS_PER_MINUTE)}.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <div className="grid gap-2">
            <Label htmlFor="webhook-limit">Events per minute</Label>
            <Input
              id="webhook-limit"
              inputMode="numeric"
              autoComplete="off"
              placeholder={`${numberFormat.format(DEFAULT_WEBHOOK_EVENTS_PER_MINUTE)} (default)`}
              value={text}
              aria-invalid={error !== undefined}
              onChange={(e) => {
                setText(e.target.value);
                setError(undefined);
              }}
              className="tabular-nums"
            />
          </div>
          <DialogFormFooter submitLabel="Save limit" pending={save.isPending} onCancel={onClose} error={error} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
