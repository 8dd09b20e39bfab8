'use client';

import * as React from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { AppWindowIcon, MoreHorizontalIcon, RotateCwIcon } from 'lucide-react';
import { toast } from 'sonner';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { DataTable } from '@/components/ui/data-table';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { adminFetch, errorMessage, queryKeys } from '@/components/console/api';
import { formatDate, formatDateTime, formatRelative } from '@/components/console/format';
import { SecretDialog, type ShownSecret } from '@/components/console/secret-dialog';
import { useApps } from '@/components/console/use-selected-app';
import type { PublicApp } from '@/lib/contract/app';
import { CreateAppDialog } from './create-app-dialog';

interface Shown {
  title: string;
  description: string;
  secrets: ShownSecret[];
}

const APP_SECRET_HINT = 'Your game backend exchanges it for player tokens (POST /v1/auth/token). Never ship it in a game client.';
const WEBHOOK_SECRET_HINT = 'Signs server-to-server events sent to POST /v1/webhook/incoming (HMAC-SHA256).';

function columns(onRotate: (app: PublicApp) => void): ColumnDef<PublicApp, unknown>[] {
  return [
    {
      id: 'name',
      accessorFn: (a) => `${a.name} ${a.id}`,
      header: 'App',
      sortingFn: (a, b) => a.original.name.localeCompare(b.original.name),
      cell: ({ row }) => (
        <div className="min-w-0">
          <p className="font-medium">{row.original.name}</p>
          <p className="font-mono text-xs text-muted-foreground">{row.original.id}</p>
        </div>
      ),
    },
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
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      size: 56,
      enableSorting: false,
      cell: ({ row }) => (
        <div className="flex justify-end">
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${row.original.name} (${row.original.id})`}>
                <MoreHorizontalIcon aria-hidden />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem onSelect={() => onRotate(row.original)}>
                <RotateCwIcon aria-hidden />
                Rotate app secret
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      ),
    },
  ];
}

export function AppsScreen() {
  const { data: apps, isLoading, error } = useApps();
  const queryClient = useQueryClient();
  const [shown, setShown] = React.useState<Shown | null>(null);
  const [rotating, setRotating] = React.useState<PublicApp | null>(null);

  const rotate = useMutation({
    mutationFn: (app: PublicApp) => adminFetch<{ appId: string; appSecret: string }>(`/api/admin/apps/${encodeURIComponent(app.id)}/rotate-secret`, { method: 'POST' }),
    onSuccess: (result, app) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.apps });
      setShown({
        title: `New app secret of ${app.name}`,
        description: 'The previous secret no longer works: give this one to the game’s backend now.',
        secrets: [{ label: 'App secret', value: result.appSecret, hint: APP_SECRET_HINT }],
      });
    },
    onError: (err) => toast.error(`Could not rotate the secret: ${errorMessage(err)}`),
  });

  const cols = React.useMemo(() => columns(setRotating), []);

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
      <AlertDialog open={rotating !== null} onOpenChange={(open) => !open && setRotating(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Rotate the app secret of {rotating?.name}?</AlertDialogTitle>
            <AlertDialogDescription>
              The current secret stops working at once: your game’s backend cannot get player tokens until it has the new one.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction destructive onClick={() => rotating && rotate.mutate(rotating)}>
              Rotate secret
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
      <SecretDialog title={shown?.title ?? ''} description={shown?.description ?? ''} secrets={shown?.secrets ?? null} onClose={() => setShown(null)} />
    </>
  );
}
