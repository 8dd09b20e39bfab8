'use client';

// The two-person rule on the draft screen: a publish waiting for approval is a
// snapshot of the draft, reviewed here as the draft is (changes, field diffs,
// warnings). Another editor or admin approves it (acknowledging its warnings)
// or rejects it with a reason; its requester may withdraw it.
import * as React from 'react';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ShieldCheck, TriangleAlert } from 'lucide-react';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { DialogFormFooter } from '@/components/console/dialog-form-footer';
import { adminFetch, appPath, errorMessage } from '@/components/console/api';
import { CatalogChanges } from '@/components/console/catalog-changes';
import { formatDateTime } from '@/components/console/format';
import { useStaff } from '@/components/console/staff-context';
import type { Draft, DraftWarning, PendingApproval } from '@/lib/contract/release';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function ApprovalCard({ appId, approval, onDone }: { appId: string; approval: PendingApproval; onDone(): void }) {
  const { staff, can } = useStaff();
  const mine = approval.requestedBy === `staff:${staff.email}`;
  const canDecide = can('catalog.write') && !mine;
  const [confirm, setConfirm] = React.useState<'approve' | 'withdraw' | null>(null);
  const [rejecting, setRejecting] = React.useState(false);
  const [reason, setReason] = React.useState('');
  const [rejectError, setRejectError] = React.useState<string | undefined>(undefined);
  const warnings = approval.warnings;

  const act = useMutation({
    mutationFn: (action: { kind: 'approve' | 'reject' | 'withdraw'; reason?: string }) => {
      switch (action.kind) {
        case 'approve':
          return adminFetch<{ release?: number; scheduledAt?: number }>(appPath(appId, 'draft', 'approve'), {
            method: 'POST',
            body: { requestedAt: approval.requestedAt, ...(warnings.length > 0 ? { acknowledgeWarnings: true } : {}) },
          });
        case 'reject':
          return adminFetch(appPath(appId, 'draft', 'reject'), { method: 'POST', body: { reason: action.reason } });
        case 'withdraw':
          return adminFetch(appPath(appId, 'draft', 'withdraw'), { method: 'POST' });
      }
    },
    onSuccess: (answer, action) => {
      onDone();
      setRejecting(false);
      setReason('');
      const approved = answer as { release?: number; scheduledAt?: number } | undefined;
      const messages = {
        approve: approved?.scheduledAt ? `Approved: scheduled for ${formatDateTime(approved.scheduledAt)}` : `Approved and published as release ${approved?.release ?? ''}`,
        reject: 'Rejected: nothing was published; the changes stay in the draft',
        withdraw: 'Withdrawn: nothing was published; the changes stay in the draft',
      };
      toast.success(messages[action.kind]);
    },
    onError: (err, action) => (action.kind === 'reject' ? setRejectError(errorMessage(err)) : toast.error(errorMessage(err))),
  });

  const when = approval.publishAt === null ? 'as soon as it is approved' : `at ${formatDateTime(approval.publishAt)}`;
  return (
    <Card aria-labelledby="approval-title">
      <CardHeader>
        <CardTitle id="approval-title" className="flex items-center gap-2">
          <ShieldCheck aria-hidden className="size-4" />
          Waiting for approval by another editor
        </CardTitle>
        <CardDescription>
          {approval.requestedBy} asked to publish release {approval.release} {when} ({formatDateTime(approval.requestedAt)}). Nothing is live until another editor or admin approves it.{' '}
          {approval.changesSince.length > 0
            ? `${count(approval.changesSince.length, 'change', 'changes')} made since ${approval.changesSince.length === 1 ? 'is' : 'are'} not in it and stay${approval.changesSince.length === 1 ? 's' : ''} in the draft.`
            : 'Edits made from now on stay in the draft for the next release.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {warnings.length > 0 && (
          <Alert variant="warning" aria-label="Payout warnings of the request">
            <TriangleAlert aria-hidden />
            <AlertTitle>{count(warnings.length, 'payout warning', 'payout warnings')}: approving asks you to confirm</AlertTitle>
            <AlertDescription>
              <WarningItems warnings={warnings} />
            </AlertDescription>
          </Alert>
        )}
        <CatalogChanges changes={approval.changes} details={approval.changeDetails} label={`In release ${approval.release}, waiting for approval`} />
        {approval.changesSince.length > 0 && (
          <div className="grid gap-1.5">
            <h3 className="text-sm font-medium">Edited since: not in it</h3>
            <CatalogChanges changes={approval.changesSince} label="Changes since approval was asked for" />
          </div>
        )}
        {mine ? (
          <div className="flex flex-wrap items-center gap-2">
            <p className="text-sm text-muted-foreground">You asked for it: another editor or admin approves it.</p>
            <Button variant="outline" onClick={() => setConfirm('withdraw')} disabled={act.isPending}>
              Withdraw request
            </Button>
          </div>
        ) : canDecide ? (
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => setConfirm('approve')} disabled={act.isPending}>
              Approve and publish
            </Button>
            <Button variant="outline" onClick={() => setRejecting(true)} disabled={act.isPending}>
              Reject
            </Button>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">An editor or admin approves or rejects it.</p>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirm === 'approve'}
        onClose={() => setConfirm(null)}
        destructive={false}
        title={approval.publishAt !== null ? `Approve: publish at ${formatDateTime(approval.publishAt)} (at once if that time has passed)?` : 'Approve and publish now?'}
        description={`Players see ${count(approval.changes.length, 'change', 'changes')} of ${approval.requestedBy}'s request. It becomes release ${approval.release}, which you can restore later.`}
        confirmLabel={warnings.length > 0 ? 'Approve anyway' : 'Approve'}
        onConfirm={() => act.mutate({ kind: 'approve' })}
      >
        {warnings.length > 0 && (
          <div className="grid gap-1 text-sm">
            <p className="font-medium">This release may pay out much more than live:</p>
            <WarningItems warnings={warnings} />
          </div>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'withdraw'}
        onClose={() => setConfirm(null)}
        destructive={false}
        title="Withdraw your request?"
        description="Nothing is published; its changes stay in the draft."
        confirmLabel="Withdraw"
        onConfirm={() => act.mutate({ kind: 'withdraw' })}
      />
      <Dialog open={rejecting} onOpenChange={(open) => !open && setRejecting(false)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Reject the request of {approval.requestedBy}</DialogTitle>
            <DialogDescription>Nothing is published; the changes stay in the draft. The requester reads your reason on this page.</DialogDescription>
          </DialogHeader>
          <form
            className="grid gap-4"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              if (reason.trim() === '') setRejectError('Say why: the requester reads it');
              else act.mutate({ kind: 'reject', reason: reason.trim() });
            }}
          >
            <div className="grid gap-2">
              <Label htmlFor="reject-reason">Reason</Label>
              <Textarea
                id="reject-reason"
                value={reason}
                maxLength={1000}
                aria-invalid={rejectError !== undefined}
                onChange={(e) => {
                  setReason(e.target.value);
                  setRejectError(undefined);
                }}
              />
            </div>
            <DialogFormFooter submitLabel="Reject" pending={act.isPending} onCancel={() => setRejecting(false)} error={rejectError} />
          </form>
        </DialogContent>
      </Dialog>
    </Card>
  );
}

/** The last rejected request, until the next one: who rejected it and why. */
export function RejectionNote({ rejection }: { rejection: NonNullable<Draft['rejection']> }) {
  return (
    <Alert variant="warning" aria-label="Last request rejected">
      <TriangleAlert aria-hidden />
      <AlertTitle>
        Rejected by {rejection.rejectedBy}, {formatDateTime(rejection.rejectedAt)}
      </AlertTitle>
      <AlertDescription>
        <p>
          “{rejection.reason}” (request of {rejection.requestedBy}). Its changes are in the draft.
        </p>
      </AlertDescription>
    </Alert>
  );
}

function WarningItems({ warnings }: { warnings: DraftWarning[] }) {
  return (
    <ul className="grid list-disc gap-0.5 pl-4">
      {warnings.map((w) => (
        <li key={`${w.code}:${w.kind}:${w.id}:${w.path}`}>{w.message}</li>
      ))}
    </ul>
  );
}
