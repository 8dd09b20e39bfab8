'use client';

// "Require approval": the app's two-person rule (requireApproval), switched on
// or off with PATCH /api/admin/apps/:appId (admins; audited). Switching it off
// does not approve a request already waiting.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { adminFetch, errorMessage, queryKeys } from '@/components/console/api';
import type { PublicApp } from '@/lib/contract/app';

/** The rule as the Apps screen shows it. */
export function approvalRuleLabel(app: PublicApp): string {
  return app.requireApproval ? 'Needs a second editor' : 'Direct';
}

export function ApprovalRuleDialog({ app, onClose }: { app: PublicApp | null; onClose(): void }) {
  const queryClient = useQueryClient();
  const next = !(app?.requireApproval ?? false);
  const save = useMutation({
    mutationFn: (target: PublicApp) => adminFetch<{ app: PublicApp }>(`/api/admin/apps/${encodeURIComponent(target.id)}`, { method: 'PATCH', body: { requireApproval: !target.requireApproval } }),
    onSuccess: ({ app: saved }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.apps });
      toast.success(saved.requireApproval ? `${saved.name}: a publish now waits for another editor’s approval` : `${saved.name}: editors publish directly again`);
      onClose();
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  return (
    <ConfirmDialog
      open={app !== null}
      onClose={onClose}
      destructive={false}
      title={next ? `Require approval to publish ${app?.name ?? ''}?` : `Let editors of ${app?.name ?? ''} publish directly?`}
      description={
        next
          ? 'Publishing or scheduling the draft will wait until another editor or admin approves it; whoever asks cannot approve their own request. The live catalog then changes only through the draft: direct API writes to it are refused.'
          : 'Publishing the draft goes live at once again. A request already waiting stays waiting until it is approved, rejected or withdrawn.'
      }
      confirmLabel={next ? 'Require approval' : 'Publish directly'}
      onConfirm={() => app && save.mutate(app)}
    />
  );
}
