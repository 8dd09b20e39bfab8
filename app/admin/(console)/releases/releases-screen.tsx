'use client';

import * as React from 'react';
import { useRouter } from 'next/navigation';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { adminFetch, appPath, errorMessage } from '@/components/console/api';
import { CatalogChanges } from '@/components/console/catalog-changes';
import { formatDateTime } from '@/components/console/format';
import { ScheduledReleaseSummary } from '@/components/console/scheduled-release';
import { useStaff } from '@/components/console/staff-context';
import { useSelectedApp } from '@/components/console/use-selected-app';
import type { ReleaseList } from '@/lib/contract/release';
import { draftKey, releasesKey } from '../draft/draft-screen';

export function ReleasesScreen() {
  const { can } = useStaff();
  const canWrite = can('catalog.write');
  const { app } = useSelectedApp();
  const appId = app?.id ?? '';
  const router = useRouter();
  const queryClient = useQueryClient();
  const { data, isLoading, error } = useQuery({ queryKey: releasesKey(appId), queryFn: () => adminFetch<ReleaseList>(appPath(appId, 'releases')), enabled: !!app });
  const [restoring, setRestoring] = React.useState<number | null>(null);
  const restore = useMutation({
    mutationFn: (release: number) => adminFetch(appPath(appId, 'releases', String(release), 'restore'), { method: 'POST' }),
    onSuccess: (_, release) => {
      void queryClient.invalidateQueries({ queryKey: draftKey(appId) });
      toast.success(`Release ${release} restored into the draft: publish it to make it live`);
      router.push(`/admin/draft?app=${encodeURIComponent(appId)}`);
    },
    onError: (err) => toast.error(errorMessage(err)),
  });

  return (
    <>
      <PageHeader
        title="Releases"
        description={`Every change of the live catalog${app ? ` of ${app.name}` : ''}, newest first: who published it, when, and what changed. Restore one to undo what came after.`}
        breadcrumbs={[{ label: 'Console', href: '/admin' }, { label: app?.name ?? 'App' }, { label: 'Releases' }]}
      />
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the releases: {errorMessage(error)}
        </p>
      ) : isLoading || !data ? (
        <p className="text-sm text-muted-foreground">Loading…</p>
      ) : (
        <div className="grid gap-4">
          {data.scheduled && (
            <Card>
              <CardHeader>
                <CardTitle>Scheduled</CardTitle>
                <CardDescription>The draft as it was when scheduled goes live at {formatDateTime(data.scheduled.scheduledAt)}.</CardDescription>
              </CardHeader>
              <CardContent>
                <ScheduledReleaseSummary schedule={data.scheduled} />
              </CardContent>
            </Card>
          )}
          <Table aria-label="Releases">
            <TableHeader>
              <TableRow>
                <TableHead>Release</TableHead>
                <TableHead>Published</TableHead>
                <TableHead>By</TableHead>
                <TableHead>What changed</TableHead>
                {canWrite && <TableHead><span className="sr-only">Actions</span></TableHead>}
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.releases.length === 0 && (
                <TableRow>
                  <TableCell colSpan={5} className="text-muted-foreground">
                    No release yet: the first change of the catalog makes one.
                  </TableCell>
                </TableRow>
              )}
              {data.releases.map((r, i) => (
                <TableRow key={r.release}>
                  <TableCell className="font-medium">
                    {r.release}
                    {i === 0 && <span className="ml-2 text-xs text-muted-foreground">(live)</span>}
                  </TableCell>
                  <TableCell>
                    <time dateTime={new Date(r.publishedAt).toISOString()}>{formatDateTime(r.publishedAt)}</time>
                  </TableCell>
                  <TableCell className="text-muted-foreground">{r.publishedBy}</TableCell>
                  <TableCell>
                    <CatalogChanges changes={r.changes} label={`Changes of release ${r.release}`} />
                  </TableCell>
                  {canWrite && (
                    <TableCell className="text-right">
                      <Button variant="outline" size="sm" onClick={() => setRestoring(r.release)} aria-label={`Restore release ${r.release} into the draft`}>
                        Restore
                      </Button>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <ConfirmDialog
        open={restoring !== null}
        onClose={() => setRestoring(null)}
        destructive={false}
        title={`Restore release ${restoring ?? ''} into the draft?`}
        description="The draft becomes exactly the catalog of that release (a draft you have is replaced). Nothing goes live until you publish it."
        confirmLabel="Restore into the draft"
        onConfirm={() => restoring !== null && restore.mutate(restoring)}
      />
    </>
  );
}
