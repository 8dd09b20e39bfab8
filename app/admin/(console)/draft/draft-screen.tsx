'use client';

import * as React from 'react';
import Link from 'next/link';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { TriangleAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { adminFetch, appPath, errorMessage } from '@/components/console/api';
import { draftQuery } from '@/components/console/draft';
import { CatalogChanges } from '@/components/console/catalog-changes';
import { ScheduledReleaseSummary } from '@/components/console/scheduled-release';
import { timeZoneLabel } from '@/components/console/campaign-phase';
import { formatDateTime } from '@/components/console/format';
import { IfCan, useStaff } from '@/components/console/staff-context';
import { useSelectedApp } from '@/components/console/use-selected-app';
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { DraftWarning } from '@/lib/contract/release';
import { fromLocalInput } from '@/lib/console/local-time';
import { ImpactCard } from './impact-card';
import { PreviewPlayerCard } from './preview-card';
import { ApprovalCard, RejectionNote } from './approval-card';

export const draftKey = (appId: string) => draftQuery(appId).queryKey;
export const releasesKey = (appId: string) => ['admin', 'apps', appId, 'releases'] as const;

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function DraftScreen() {
  const { can } = useStaff();
  const canWrite = can('catalog.write');
  const { app } = useSelectedApp();
  const appId = app?.id ?? '';
  const queryClient = useQueryClient();
  const { data: draft, isLoading, error } = useQuery({ ...draftQuery(appId), enabled: !!app });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: draftKey(appId) });
    void queryClient.invalidateQueries({ queryKey: releasesKey(appId) });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'apps', appId] });
  };
  // The text being edited, or null: the stored draft's.
  const [edited, setEdited] = React.useState<string | null>(null);
  const json = edited ?? (draft ? JSON.stringify(draft.catalog, null, 2) : '');
  const [at, setAt] = React.useState('');
  const atMs = fromLocalInput(at);
  const [confirm, setConfirm] = React.useState<'publish' | 'schedule' | 'discard' | null>(null);
  const warnings = draft?.warnings ?? [];
  // The two-person rule (the app's requireApproval): a publish asks another editor or admin to approve it.
  const approvalRule = app?.requireApproval === true;
  // Publishing a draft with warnings asks first, and then says the warnings were read (acknowledgeWarnings).
  const acknowledge = warnings.length > 0 ? { acknowledgeWarnings: true } : {};

  const act = useMutation({
    mutationFn: async (action: { kind: 'start' | 'save' | 'publish' | 'schedule' | 'unschedule' | 'discard'; at?: number; catalog?: unknown }) => {
      switch (action.kind) {
        case 'start': {
          const live = await adminFetch<CatalogDocument>(appPath(appId, 'catalog'));
          return adminFetch(appPath(appId, 'draft'), { method: 'PUT', body: live });
        }
        case 'save':
          return adminFetch(appPath(appId, 'draft'), { method: 'PUT', body: action.catalog });
        case 'publish':
          return adminFetch(appPath(appId, 'draft', 'publish'), { method: 'POST', body: { ...acknowledge } });
        case 'schedule':
          return adminFetch(appPath(appId, 'draft', 'publish'), { method: 'POST', body: { at: action.at, ...acknowledge } });
        case 'unschedule':
          return adminFetch(appPath(appId, 'draft', 'publish'), { method: 'DELETE' });
        case 'discard':
          return adminFetch(appPath(appId, 'draft'), { method: 'DELETE' });
      }
    },
    onSuccess: (answer, action) => {
      refresh();
      setEdited(null);
      const messages = {
        start: 'Draft started from the live catalog',
        save: 'Draft saved: players see nothing of it until it is published',
        publish: approvalRule ? 'Asked for approval: another editor or admin approves it' : `Published as release ${(answer as { release?: number } | undefined)?.release ?? ''}`,
        schedule: approvalRule ? `Asked for approval to publish at ${action.at ? formatDateTime(action.at) : ''}` : `Scheduled for ${action.at ? formatDateTime(action.at) : ''}`,
        unschedule: 'Schedule cancelled; its changes stay in the draft',
        discard: 'Draft discarded',
      };
      toast.success(messages[action.kind]);
    },
    onError: (err) => toast.error(errorMessage(err)),
  });

  const saveJson = () => {
    let catalog: unknown;
    try {
      catalog = JSON.parse(json);
    } catch {
      toast.error('The draft is not valid JSON');
      return;
    }
    act.mutate({ kind: 'save', catalog });
  };

  return (
    <>
      <PageHeader
        title="Draft"
        description={`Prepare catalog changes${app ? ` of ${app.name}` : ''} without players seeing them, then publish them all at once, now or at a set time. Every publish is a release you can restore.`}
        breadcrumbs={[{ label: 'Console', href: '/admin' }, { label: app?.name ?? 'App' }, { label: 'Draft' }]}
        actions={
          <Button variant="outline" asChild>
            <Link href={`/admin/releases${app ? `?app=${encodeURIComponent(app.id)}` : ''}`}>Releases</Link>
          </Button>
        }
      />
      {!canWrite && <p className="mb-4 text-sm text-muted-foreground">Your role can read the draft but not change or publish it.</p>}
      <p className="mb-4 text-sm text-muted-foreground">
        The Missions, Campaigns and Themes screens save into this draft (and start it when there is none); players see nothing of it until it is published here.
      </p>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the draft: {errorMessage(error)}
        </p>
      ) : isLoading || !app ? (
        <p className="text-sm text-muted-foreground">Loading…</p>
      ) : !draft ? (
        <Card>
          <CardHeader>
            <CardTitle>No draft</CardTitle>
            <CardDescription>Start one from the live catalog, or restore a release into it from the Releases page.</CardDescription>
          </CardHeader>
          <IfCan capability="catalog.write">
            <CardContent>
              <Button onClick={() => act.mutate({ kind: 'start' })} disabled={act.isPending}>
                Start a draft from the live catalog
              </Button>
            </CardContent>
          </IfCan>
        </Card>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle>Changes against live</CardTitle>
              <CardDescription>
                Based on release {draft.baseRelease}; last saved by {draft.updatedBy}, {formatDateTime(draft.updatedAt)}.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              {warnings.length > 0 && (
                <Alert variant="warning" aria-label="Payout warnings">
                  <TriangleAlert aria-hidden />
                  <AlertTitle>
                    {warnings.length} payout warning{warnings.length === 1 ? '' : 's'}: publishing asks you to confirm
                  </AlertTitle>
                  <AlertDescription>
                    <ul className="grid list-disc gap-0.5 pl-4">
                      {warnings.map((w) => (
                        <li key={`${w.code}:${w.kind}:${w.id}:${w.path}`}>{w.message}</li>
                      ))}
                    </ul>
                  </AlertDescription>
                </Alert>
              )}
              <CatalogChanges changes={draft.changes} details={draft.changeDetails} label="Changes against live" />
            </CardContent>
          </Card>
          {draft.approval ? (
            <ApprovalCard appId={appId} approval={draft.approval} onDone={refresh} />
          ) : (
          <Card>
            <CardHeader>
              <CardTitle>Publish</CardTitle>
              <CardDescription>
                {draft.scheduledAt !== null ? (
                  <>
                    Scheduled for <strong>{formatDateTime(draft.scheduledAt)}</strong> ({utc(draft.scheduledAt)}). It publishes the draft as it was when scheduled; later edits wait for the next release. Cancelling the schedule keeps its changes in the draft.
                  </>
                ) : (
                  'Nothing scheduled.'
                )}
                {approvalRule && ' This app requires approval: publishing or scheduling asks another editor or admin to approve the draft as it is now.'}
              </CardDescription>
            </CardHeader>
            {draft.rejection && (
              <CardContent>
                <RejectionNote rejection={draft.rejection} />
              </CardContent>
            )}
            {draft.schedule && (
              <CardContent>
                <ScheduledReleaseSummary schedule={draft.schedule} />
              </CardContent>
            )}
            <IfCan capability="catalog.write">
              <CardContent className="grid gap-4">
                <div className="flex flex-wrap gap-2">
                  <Button onClick={() => setConfirm('publish')} disabled={act.isPending}>
                    {approvalRule ? 'Ask for approval' : 'Publish now'}
                  </Button>
                  {draft.scheduledAt !== null && (
                    <Button variant="outline" onClick={() => act.mutate({ kind: 'unschedule' })} disabled={act.isPending}>
                      Cancel schedule
                    </Button>
                  )}
                  <Button variant="outline" onClick={() => setConfirm('discard')} disabled={act.isPending}>
                    Discard draft
                  </Button>
                </div>
                <div className="grid gap-1.5">
                  <Label htmlFor="publish-at">Publish at</Label>
                  <div className="flex flex-wrap gap-2">
                    <Input id="publish-at" type="datetime-local" className="w-auto" value={at} onChange={(e) => setAt(e.target.value)} aria-describedby="publish-at-zone" />
                    <Button
                      variant="secondary"
                      disabled={act.isPending || atMs === null || !Number.isFinite(atMs)}
                      onClick={() => atMs !== null && (warnings.length > 0 ? setConfirm('schedule') : act.mutate({ kind: 'schedule', at: atMs }))}
                    >
                      {approvalRule ? 'Ask to schedule' : 'Schedule'}
                    </Button>
                  </div>
                  <p id="publish-at-zone" className="text-xs text-muted-foreground">
                    Your time zone: {timeZoneLabel(atMs !== null && Number.isFinite(atMs) ? atMs : undefined)}
                    {atMs !== null && Number.isFinite(atMs) ? ` · ${utc(atMs)}` : ''}
                  </p>
                </div>
              </CardContent>
            </IfCan>
          </Card>
          )}
          <ImpactCard appId={appId} titles={new Map(draft.catalog.missions.map((m) => [m.id, m.title]))} />
          <PreviewPlayerCard appId={appId} draft={draft.catalog} />
          <Card className="lg:col-span-2">
            <CardHeader>
              <CardTitle>The draft as a catalog document</CardTitle>
              <CardDescription>The same JSON as the catalog export; saved as a whole, checked before it is stored.</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-2">
              <Label htmlFor="draft-json">Draft catalog (JSON)</Label>
              <Textarea id="draft-json" className="min-h-64 font-mono text-xs" value={json} onChange={(e) => setEdited(e.target.value)} readOnly={!canWrite} spellCheck={false} />
              <IfCan capability="catalog.write">
                <div>
                  <Button onClick={saveJson} disabled={act.isPending}>
                    Save draft
                  </Button>
                </div>
              </IfCan>
            </CardContent>
          </Card>
        </div>
      )}
      <ConfirmDialog
        open={confirm === 'publish'}
        onClose={() => setConfirm(null)}
        destructive={false}
        title={approvalRule ? 'Ask another editor to approve the draft?' : 'Publish the draft now?'}
        description={
          approvalRule
            ? `The draft as it is now (${draft?.changes.length ?? 0} change${draft?.changes.length === 1 ? '' : 's'}) waits for another editor or admin; players see nothing until it is approved. Edits you make meanwhile stay in the draft.`
            : `Players see ${draft?.changes.length ?? 0} change${draft?.changes.length === 1 ? '' : 's'} at once. It becomes a new release you can restore later.`
        }
        confirmLabel={approvalRule ? (warnings.length > 0 ? 'Ask anyway' : 'Ask for approval') : warnings.length > 0 ? 'Publish anyway' : 'Publish now'}
        onConfirm={() => act.mutate({ kind: 'publish' })}
      >
        <WarningList warnings={warnings} />
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'schedule'}
        onClose={() => setConfirm(null)}
        destructive={false}
        title="Schedule the draft with its warnings?"
        description={`The draft as it is now goes live ${atMs !== null && Number.isFinite(atMs) ? `at ${formatDateTime(atMs)}` : 'at the time set'}; edits after it wait for the next release.`}
        confirmLabel="Schedule anyway"
        onConfirm={() => atMs !== null && act.mutate({ kind: 'schedule', at: atMs })}
      >
        <WarningList warnings={warnings} />
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'discard'}
        onClose={() => setConfirm(null)}
        title="Discard the draft?"
        description="Its changes (and its schedule) are dropped; the live catalog stays as it is. The audit log keeps that it was discarded."
        confirmLabel="Discard draft"
        onConfirm={() => act.mutate({ kind: 'discard' })}
      />
    </>
  );
}

/** The warnings a publish confirms, in its dialog. */
function WarningList({ warnings }: { warnings: DraftWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="grid gap-1 text-sm">
      <p className="font-medium">This draft may pay out much more than live:</p>
      <ul aria-label="Warnings to confirm" className="grid list-disc gap-0.5 pl-5">
        {warnings.map((w) => (
          <li key={`${w.code}:${w.kind}:${w.id}:${w.path}`}>{w.message}</li>
        ))}
      </ul>
    </div>
  );
}
