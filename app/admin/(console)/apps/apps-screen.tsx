'use client';

import * as React from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { AppWindowIcon, GaugeIcon, KeyRoundIcon, ShieldCheckIcon, WebhookIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { DataTable, nameColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { actionsColumn } from '@/components/ui/row-actions';
import { errorMessage } from '@/components/console/api';
import { formatDate, formatDateTime, formatRelative } from '@/components/console/format';
import { SecretDialog } from '@/components/console/secret-dialog';
import { useApps } from '@/components/console/use-selected-app';
import type { PublicApp } from '@/lib/contract/app';
import { CreateAppDialog } from './create-app-dialog';
import { EndpointsSection } from './endpoints-section';
import { WebhookLimitDialog, webhookLimitLabel } from './webhook-limit-dialog';
import { ApprovalRuleDialog, approvalRuleLabel } from './approval-rule-dialog';
import { APP_SECRET_HINT, RotateAppSecretDialog, RotateWebhookSecretDialog, WEBHOOK_SECRET_HINT, type Shown } from './rotate-dialogs';

type Rotation = { kind: 'app' | 'webhook' | 'limit' | 'approval'; app: PublicApp } | null;

function columns(onRotate: (rotation: Rotation) => void): ColumnDef<PublicApp, unknown>[] {
  return [
    nameColumn<PublicApp>('name', 'App', (a) => a.name),
    {
      accessorKey: 'createdAt',
      header: 'Created',
      cell: ({ row }) => <span className="tabular-nums text-muted-foreground">{formatDate(row.original.createdAt)}</span>,
    },
    {
      accessorKey: 'secretRotatedAt',
      header: 'App secret set',
      cell: ({ row }) => (
        <time dateTime={new Date(row.original.secretRotatedAt).toISOString()} title={formatDateTime(row.original.secretRotatedAt)} className="text-muted-foreground">
          {formatRelative(row.original.secretRotatedAt)}
        </time>
      ),
    },
    {
      id: 'webhook',
      header: 'Webhook secret',
      enableSorting: false,
      cell: ({ row }) => {
        const until = row.original.previousWebhookSecretExpiresAt;
        if (until === null) return <span className="text-muted-foreground">One secret</span>;
        return (
          <div className="flex flex-col items-start gap-1">
            <Badge variant="warning">Previous still valid</Badge>
            <span className="text-xs text-muted-foreground">until {formatDateTime(until)}</span>
          </div>
        );
      },
    },
    {
      id: 'webhookLimit',
      header: 'Webhook limit',
      enableSorting: false,
      cell: ({ row }) => (
        <span className={row.original.webhookEventsPerMinute === null ? 'tabular-nums text-muted-foreground' : 'tabular-nums'}>{webhookLimitLabel(row.original)}</span>
      ),
    },
    {
      id: 'publishing',
      header: 'Publishing',
      enableSorting: false,
      cell: ({ row }) => (row.original.requireApproval ? <Badge variant="secondary">{approvalRuleLabel(row.original)}</Badge> : <span className="text-muted-foreground">{approvalRuleLabel(row.original)}</span>),
    },
    actionsColumn(
      (a) => `Actions for ${a.name} (${a.id})`,
      (a) => [
        { label: 'Rotate app secret', icon: KeyRoundIcon, onSelect: () => onRotate({ kind: 'app', app: a }) },
        { label: 'Rotate webhook secret', icon: WebhookIcon, onSelect: () => onRotate({ kind: 'webhook', app: a }) },
        { label: 'Set webhook limit', icon: GaugeIcon, onSelect: () => onRotate({ kind: 'limit', app: a }) },
        { label: a.requireApproval ? 'Publish without approval' : 'Require approval to publish', icon: ShieldCheckIcon, onSelect: () => onRotate({ kind: 'approval', app: a }) },
      ],
    ),
  ];
}

export function AppsScreen() {
  const { data: apps, isLoading, error } = useApps();
  const [shown, setShown] = React.useState<Shown | null>(null);
  const [rotation, setRotation] = React.useState<Rotation>(null);
  const cols = React.useMemo(() => columns(setRotation), []);
  const close = () => setRotation(null);

  return (
    <>
      <PageHeader
        title="Apps"
        description="Each app is one game with its own players, catalog and secrets. Secrets are shown once, when made."
        breadcrumbs={[{ label: 'Console', href: '/admin' }, { label: 'Settings' }, { label: 'Apps' }]}
        actions={
          <CreateAppDialog
            onCreated={(created) =>
              setShown({
                title: `${created.app.name} is ready`,
                description: `App ID ${created.app.id}. Give these to the game’s backend.`,
                secrets: [
                  { label: 'App secret', value: created.appSecret, hint: APP_SECRET_HINT },
                  { label: 'Webhook secret', value: created.webhookSecret, hint: WEBHOOK_SECRET_HINT },
                ],
              })
            }
          />
        }
      />
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the apps: {errorMessage(error)}
        </p>
      ) : (
        <DataTable
          label="Apps"
          columns={cols}
          data={apps}
          isLoading={isLoading}
          searchPlaceholder="Search apps"
          getRowId={(a) => a.id}
          initialSorting={[{ id: 'name', desc: false }]}
          empty={<EmptyState icon={AppWindowIcon} title="No app yet" description="Create the first app to get its secrets." />}
        />
      )}
      {apps && apps.length > 0 && <EndpointsSection apps={apps} onSecret={setShown} />}
      <RotateAppSecretDialog app={rotation?.kind === 'app' ? rotation.app : null} onClose={close} onRotated={setShown} />
      <RotateWebhookSecretDialog app={rotation?.kind === 'webhook' ? rotation.app : null} onClose={close} onRotated={setShown} />
      <WebhookLimitDialog app={rotation?.kind === 'limit' ? rotation.app : null} onClose={close} />
      <ApprovalRuleDialog app={rotation?.kind === 'approval' ? rotation.app : null} onClose={close} />
      <SecretDialog title={shown?.title ?? ''} description={shown?.description ?? ''} secrets={shown?.secrets ?? null} onClose={() => setShown(null)} />
    </>
  );
}
