'use client';

import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { AppWindowIcon, BookOpenIcon, CalendarRangeIcon, RepeatIcon, TargetIcon, UsersIcon, type LucideIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { adminFetch, queryKeys } from '@/components/console/api';
import { useStaff } from '@/components/console/staff-context';
import { useSelectedApp } from '@/components/console/use-selected-app';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '@/lib/auth/roles';
import type { CatalogDocument as CatalogExport } from '@/lib/contract/catalog';

function Stat({ icon: Icon, label, value, detail, loading }: { icon: LucideIcon; label: string; value: number | string; detail?: string; loading: boolean }) {
  return (
    <Card>
      <CardContent className="flex items-start gap-4">
        <div className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Icon className="size-5" aria-hidden />
        </div>
        <div className="min-w-0 space-y-1">
          <p className="text-sm text-muted-foreground">{label}</p>
          {loading ? <Skeleton className="h-7 w-12" /> : <p className="text-2xl font-semibold tabular-nums tracking-tight">{value}</p>}
          {detail && !loading && <p className="text-xs text-muted-foreground">{detail}</p>}
        </div>
      </CardContent>
    </Card>
  );
}

function campaignPhases(campaigns: CatalogExport['campaigns'], now: number) {
  const live = campaigns.filter((c) => !c.archived && c.startAt <= now && now < c.endAt).length;
  const upcoming = campaigns.filter((c) => !c.archived && c.startAt > now).length;
  return { live, upcoming };
}

export function Overview() {
  const { staff, can } = useStaff();
  const { app, apps, isLoading: appsLoading } = useSelectedApp();
  const catalog = useQuery({
    queryKey: queryKeys.catalog(app?.id ?? ''),
    queryFn: () => adminFetch<CatalogExport>(`/api/admin/apps/${encodeURIComponent(app!.id)}/catalog`),
    enabled: !!app,
  });
  const loading = appsLoading || catalog.isLoading;
  const missions = catalog.data?.missions ?? [];
  const liveMissions = missions.filter((m) => !m.archived).length;
  const recurring = missions.filter((m) => !m.archived && m.criteria.window !== 'lifetime').length;
  const phases = campaignPhases(catalog.data?.campaigns ?? [], Date.now());

  if (!appsLoading && apps?.length === 0) {
    return (
      <>
        <PageHeader title="Dashboard" />
        <Card>
          <EmptyState
            icon={AppWindowIcon}
            title="No app yet"
            description={can('apps.manage') ? 'Create the first app (a game) to get its secret and author its missions.' : 'An admin creates apps; ask one to add your game.'}
            action={
              can('apps.manage') && (
                <Button asChild>
                  <Link href="/admin/apps">Go to Apps</Link>
                </Button>
              )
            }
          />
        </Card>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Dashboard"
        description={app ? `Overview of ${app.name}. Charts of events, completions and claims come with the Dashboard screen.` : 'Overview of the selected app.'}
        breadcrumbs={[{ label: 'Console', href: '/admin' }, { label: app?.name ?? 'Dashboard' }]}
      />
      <section aria-label="Catalog at a glance" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Stat icon={TargetIcon} label="Missions" value={liveMissions} detail={`${missions.length - liveMissions} archived`} loading={loading} />
        <Stat icon={CalendarRangeIcon} label="Live campaigns" value={phases.live} detail={`${phases.upcoming} upcoming`} loading={loading} />
        <Stat icon={RepeatIcon} label="Recurring missions" value={recurring} detail="daily, weekly or monthly" loading={loading} />
        <Stat icon={AppWindowIcon} label="Apps" value={apps?.length ?? 0} loading={appsLoading} />
      </section>
      <div className="mt-6 grid gap-4 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Missions of {app?.name ?? 'this app'}</CardTitle>
            <CardDescription>The catalog as players see it: authored in the console, or as code with the admin API (GET and PUT /api/admin/apps/{'{appId}'}/catalog).</CardDescription>
          </CardHeader>
          <CardContent>
            {loading ? (
              <div className="space-y-2">
                <Skeleton className="h-5 w-2/3" />
                <Skeleton className="h-5 w-1/2" />
                <Skeleton className="h-5 w-3/5" />
              </div>
            ) : missions.length === 0 ? (
              <p className="text-sm text-muted-foreground">No mission yet.</p>
            ) : (
              <ul className="divide-y">
                {missions.slice(0, 8).map((m) => (
                  <li key={m.id} className="flex items-center justify-between gap-3 py-2.5">
                    <span className="min-w-0">
                      <span className="block truncate text-sm font-medium">{m.title}</span>
                      <span className="block truncate font-mono text-xs text-muted-foreground">
                        {m.criteria.count} × {m.criteria.eventName} · {m.criteria.window}
                      </span>
                    </span>
                    {m.archived ? <Badge variant="secondary">Archived</Badge> : <Badge variant="success">Live</Badge>}
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Your role: {ROLE_LABELS[staff.role]}</CardTitle>
            <CardDescription>{ROLE_DESCRIPTIONS[staff.role]}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-2">
            {can('apps.manage') && (
              <Button variant="outline" className="w-full justify-start" asChild>
                <Link href="/admin/apps">
                  <AppWindowIcon aria-hidden /> Manage apps and secrets
                </Link>
              </Button>
            )}
            {can('staff.manage') && (
              <Button variant="outline" className="w-full justify-start" asChild>
                <Link href="/admin/staff">
                  <UsersIcon aria-hidden /> Manage staff
                </Link>
              </Button>
            )}
            <Button variant="outline" className="w-full justify-start" asChild>
              <a href="/docs">
                <BookOpenIcon aria-hidden /> API reference
              </a>
            </Button>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
