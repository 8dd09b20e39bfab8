'use client';

// The two rotations of the Apps screen, each confirmed first: the app secret
// (the old one stops at once) and the webhook secret (the old one can stay
// valid for a grace period while the game's backend switches).
import * as React from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { adminFetch, errorMessage, queryKeys } from '@/components/console/api';
import { formatDateTime } from '@/components/console/format';
import type { ShownSecret } from '@/components/console/secret-dialog';
import type { PublicApp, RotatedWebhookSecret } from '@/lib/contract/app';

export const APP_SECRET_HINT = 'Your game backend exchanges it for player tokens (POST /v1/auth/token). Never ship it in a game client.';
export const WEBHOOK_SECRET_HINT = 'Signs server-to-server events sent to POST /v1/webhook/incoming (HMAC-SHA256).';

export interface Shown {
  title: string;
  description: string;
  secrets: ShownSecret[];
}

const path = (app: PublicApp, action: string) => `/api/admin/apps/${encodeURIComponent(app.id)}/${action}`;

export function RotateAppSecretDialog({ app, onClose, onRotated }: { app: PublicApp | null; onClose(): void; onRotated(shown: Shown): void }) {
  const queryClient = useQueryClient();
  const rotate = useMutation({
    mutationFn: (target: PublicApp) => adminFetch<{ appSecret: string }>(path(target, 'rotate-secret'), { method: 'POST' }),
    onSuccess: (result, target) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.apps });
      onRotated({
        title: `New app secret of ${target.name}`,
        description: 'The previous secret no longer works, and player tokens issued before now are refused: give this one to the game’s backend now.',
        secrets: [{ label: 'App secret', value: result.appSecret, hint: APP_SECRET_HINT }],
      });
    },
    onError: (err) => toast.error(`Could not rotate the secret: ${errorMessage(err)}`),
  });
  return (
    <ConfirmDialog
      open={app !== null}
      onClose={onClose}
      title={<>Rotate the app secret of {app?.name}?</>}
      description="The current secret stops working at once and every player token issued before now is refused: players get new tokens once your game’s backend has the new secret."
      confirmLabel="Rotate secret"
      onConfirm={() => app && rotate.mutate(app)}
    />
  );
}

const GRACE_CHOICES = [
  { seconds: 3_600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours (default)' },
  { seconds: 604_800, label: '7 days (the longest)' },
  { seconds: 0, label: 'None: it stops now (a leaked secret)' },
];

export function RotateWebhookSecretDialog({ app, onClose, onRotated }: { app: PublicApp | null; onClose(): void; onRotated(shown: Shown): void }) {
  const queryClient = useQueryClient();
  // Each opening starts from the default (state adjusted while rendering, as React advises, not in an effect).
  const [grace, setGrace] = React.useState('86400');
  const [shownApp, setShownApp] = React.useState(app);
  if (shownApp !== app) {
    setShownApp(app);
    if (app) setGrace('86400');
  }
  const rotate = useMutation({
    mutationFn: (target: PublicApp) => adminFetch<RotatedWebhookSecret>(path(target, 'rotate-webhook-secret'), { method: 'POST', body: { gracePeriodSeconds: Number(grace) } }),
    onSuccess: (result, target) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.apps });
      const previous = result.previousSecretExpiresAt === null ? 'The previous secret no longer works.' : `The previous secret is accepted until ${formatDateTime(result.previousSecretExpiresAt)}.`;
      onRotated({
        title: `New webhook secret of ${target.name}`,
        description: `${previous} Give this one to whatever signs the deliveries.`,
        secrets: [{ label: 'Webhook secret', value: result.webhookSecret, hint: WEBHOOK_SECRET_HINT }],
      });
    },
    onError: (err) => toast.error(`Could not rotate the webhook secret: ${errorMessage(err)}`),
  });
  return (
    <ConfirmDialog
      open={app !== null}
      onClose={onClose}
      title={<>Rotate the webhook secret of {app?.name}?</>}
      description="Deliveries signed with the current secret keep being accepted for the grace period you choose."
      confirmLabel="Rotate webhook secret"
      destructive={grace === '0'}
      onConfirm={() => app && rotate.mutate(app)}
    >
      <div className="grid gap-2">
        <Label htmlFor="webhook-grace">Previous secret stays valid for</Label>
        <Select value={grace} onValueChange={setGrace}>
          <SelectTrigger id="webhook-grace">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {GRACE_CHOICES.map((c) => (
              <SelectItem key={c.seconds} value={String(c.seconds)}>
                {c.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
    </ConfirmDialog>
  );
}
