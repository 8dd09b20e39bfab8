'use client';

// The Dashboard: per app, over a chosen range, events per minute, completions
// and claims per mission and currency granted per currency, from
// GET /api/admin/apps/:appId/analytics (refreshed while the page is open);
// below, spent against budget per campaign (GET …/campaigns), the catalog at
// a glance and the caller's role.
import * as React from 'react';
import Link from 'next/link';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ActivityIcon, AppWindowIcon, BookOpenIcon, CoinsIcon, GiftIcon, RefreshCwIcon, TriangleAlertIcon, TrophyIcon, UsersIcon, type LucideIcon } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button, focusRing } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { adminFetch, campaignsQuery, errorMessage, queryKeys } from '@/components/console/api';
import { budgetRows, CampaignBudgets, refusalText } from '@/components/console/campaign-budget';
import { useNow } from '@/components/console/browser-store';
import { MISSION_STATUS_BADGE, MISSION_STATUS_LABELS, missionStatus, type MissionStatus } from '@/components/console/mission-status';
import { CurrencyChart, EventRateChart, MissionBarsChart } from '@/components/console/analytics-charts';
import { useStaff } from '@/components/console/staff-context';
import { useSelectedApp } from '@/components/console/use-selected-app';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '@/lib/auth/roles';
import { ANALYTICS_BUCKETS, ANALYTICS_MAX_RANGE_MS, type Analytics, type AnalyticsBucket } from '@/lib/contract/analytics';
import type { CatalogDocument as CatalogExport } from '@/lib/contract/catalog';
import { toLocalInput } from '@/lib/console/local-time';
import { describeMission } from '@/lib/missions/describe-mission';

const HOUR = 3_600_000;
const PRESETS = {
  '1h': { label: 'Last hour', ms: HOUR, refreshMs: 15_000 },
  '24h': { label: 'Last 24 hours', ms: 24 * HOUR, refreshMs: 30_000 },
  '7d': { label: 'Last 7 days', ms: 7 * 24 * HOUR, refreshMs: 60_000 },
} as const;
type Preset = keyof typeof PRESETS;
type Range = { preset: Preset } | { preset: 'custom'; from: number; to: number };

/** By the minute up to a day (1,440 buckets at most), by the hour beyond. */
const bucketFor = (ms: number): AnalyticsBucket => (ms <= 24 * HOUR ? 'minute' : 'hour');

function resolve(range: Range, now: number): { from: number; to: number; bucket: AnalyticsBucket } {
  if (range.preset === 'custom') return { from: range.from, to: range.to, bucket: bucketFor(range.to - range.from) };
  const ms = PRESETS[range.preset].ms;
  return { from: now - ms, to: now, bucket: bucketFor(ms) };
}

const number = new Intl.NumberFormat();
const timeOfDay = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dayAndTime = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
const dayOnly = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

function Stat({ icon: Icon, label, value, detail, loading }: { icon: LucideIcon; label: string; value: React.ReactNode; detail?: React.ReactNode; loading: boolean }) {
  return (
    <Card>
      <CardContent className="flex items-start gap-4">
        <div className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Icon className="size-5" aria-hidden />
        </div>
        <div className="min-w-0 space-y-1">
          <p className="text-sm text-muted-foreground">{label}</p>
          {loading ? <Skeleton className="h-7 w-12" /> : <p className="text-2xl font-semibold tabular-nums tracking-tight">{value}</p>}
          {detail && !loading && <p className="truncate text-xs text-muted-foreground">{detail}</p>}
        </div>
      </CardContent>
    </Card>
  );
}

function CustomRange({ initial, onApply }: { initial: { from: number; to: number }; onApply(range: { from: number; to: number }): void }) {
  const [from, setFrom] = React.useState(() => toLocalInput(initial.from));
  const [to, setTo] = React.useState(() => toLocalInput(initial.to));
  const fromMs = new Date(from).getTime();
  const toMs = new Date(to).getTime();
  const problem = !Number.isFinite(fromMs) || !Number.isFinite(toMs)
    ? 'Enter both times.'
    : fromMs >= toMs
      ? 'From must be before To.'
      : toMs - fromMs > ANALYTICS_MAX_RANGE_MS
        ? `At most ${ANALYTICS_MAX_RANGE_MS / (24 * HOUR)} days.`
        : null;
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      aria-label="Custom range"
      onSubmit={(e) => {
        e.preventDefault();
        if (!problem) onApply({ from: fromMs, to: toMs });
      }}
    >
      <div className="space-y-1.5">
        <Label htmlFor="range-from">From</Label>
        <Input id="range-from" type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} className="w-auto" aria-invalid={problem !== null} aria-describedby="range-problem" />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="range-to">To</Label>
        <Input id="range-to" type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} className="w-auto" aria-invalid={problem !== null} aria-describedby="range-problem" />
      </div>
      <Button type="submit" variant="secondary" disabled={problem !== null}>
        Apply
      </Button>
      <p id="range-problem" className="min-h-5 text-sm text-destructive" aria-live="polite">
        {problem}
      </p>
    </form>
  );
}

function ChartCard({ title, description, children, className }: { title: string; description: React.ReactNode; children: React.ReactNode; className?: string }) {
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function AnalyticsPanel({ appId, missionTitles }: { appId: string; missionTitles: Map<string, string> }) {
  const [range, setRange] = React.useState<Range>({ preset: '1h' });
  const refreshMs = range.preset === 'custom' ? false : PRESETS[range.preset].refreshMs;
  const analytics = useQuery({
    queryKey: queryKeys.analytics(appId, range),
    queryFn: () => {
      const { from, to, bucket } = resolve(range, Date.now());
      return adminFetch<Analytics>(`/api/admin/apps/${encodeURIComponent(appId)}/analytics?from=${from}&to=${to}&bucket=${bucket}`);
    },
    refetchInterval: refreshMs,
    placeholderData: keepPreviousData,
  });
  const data = analytics.data;
  const loading = analytics.isLoading;
  const rangeLabel = range.preset === 'custom' ? 'in the chosen range' : `in the ${PRESETS[range.preset].label.toLowerCase()}`;
  const perBucket = data ? data.bucketMs / ANALYTICS_BUCKETS.minute : 1;
  const spansDays = data ? data.to - data.from > 24 * HOUR : false;
  const points = (data?.series ?? []).map((s) => ({ start: s.start, events: s.events, rate: s.events / perBucket }));
  const peak = points.reduce((m, p) => Math.max(m, p.rate), 0);
  const missionRows = (data?.missions ?? []).map((m) => ({ ...m, name: missionTitles.get(m.missionId) ?? m.missionId }));
  const currencyTotal = (data?.currencies ?? []).map((c) => `${number.format(c.amount)} ${c.currency}`).join(' · ');
  const empty = data !== undefined && data.totals.events === 0 && data.totals.claims === 0;

  return (
    <section aria-labelledby="analytics-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="analytics-heading" className="text-lg font-semibold tracking-tight">
          Activity
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <div role="group" aria-label="Range" className="inline-flex h-9 items-center rounded-lg bg-muted p-1 text-muted-foreground">
            {([...(Object.keys(PRESETS) as Preset[]), 'custom'] as const).map((p) => (
              <button
                key={p}
                type="button"
                aria-pressed={range.preset === p}
                onClick={() => {
                  if (p === range.preset) return;
                  if (p === 'custom') {
                    const now = Date.now();
                    setRange({ preset: 'custom', from: now - 24 * HOUR, to: now });
                  } else setRange({ preset: p });
                }}
                className={cn(
                  'inline-flex h-full items-center rounded-md px-3 text-sm font-medium whitespace-nowrap transition-colors hover:text-foreground aria-pressed:bg-background aria-pressed:text-foreground aria-pressed:shadow-xs',
                  focusRing,
                )}
              >
                {p === 'custom' ? 'Custom' : PRESETS[p].label}
              </button>
            ))}
          </div>
          <Button variant="outline" size="icon" aria-label="Refresh" onClick={() => void analytics.refetch()} disabled={analytics.isFetching}>
            <RefreshCwIcon className={analytics.isFetching ? 'animate-spin' : undefined} aria-hidden />
          </Button>
        </div>
      </div>
      {range.preset === 'custom' && (
        <Card>
          <CardContent>
            <CustomRange key={`${range.from}-${range.to}`} initial={range} onApply={(r) => setRange({ preset: 'custom', ...r })} />
          </CardContent>
        </Card>
      )}

      {analytics.isError && (
        <Alert variant="destructive">
          <AlertTitle>The analytics could not be loaded</AlertTitle>
          <AlertDescription>{errorMessage(analytics.error)}</AlertDescription>
        </Alert>
      )}

      <p className="text-sm text-muted-foreground" data-testid="analytics-totals" aria-live="polite">
        {data && !analytics.isPlaceholderData
          ? `${number.format(data.totals.events)} events, ${number.format(data.totals.completions)} completions, ${number.format(data.totals.claims)} claims ${rangeLabel}` +
            (data.currencies.length > 0 ? `; granted ${currencyTotal}.` : '.') +
            ` Updated ${timeOfDay.format(analytics.dataUpdatedAt)}${refreshMs ? `, refreshed every ${refreshMs / 1000} s` : ''}.`
          : `Loading ${rangeLabel.replace(/^in /, '')}…`}
      </p>

      <section aria-label="Totals" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Stat icon={ActivityIcon} label="Events" value={number.format(data?.totals.events ?? 0)} detail={data && `peak ${number.format(Math.round(peak * 100) / 100)} per minute`} loading={loading} />
        <Stat icon={TrophyIcon} label="Completions" value={number.format(data?.totals.completions ?? 0)} detail={data && `${data.missions.filter((m) => m.completions > 0).length} missions`} loading={loading} />
        <Stat
          icon={GiftIcon}
          label="Claims"
          value={number.format(data?.totals.claims ?? 0)}
          detail={data && `${data.missions.filter((m) => m.claims > 0).length} missions` + (data.totals.claimsRefused > 0 ? ` · ${number.format(data.totals.claimsRefused)} refused by a budget` : '')}
          loading={loading}
        />
        <Stat
          icon={CoinsIcon}
          label="Currency granted"
          value={data && data.currencies.length > 0 ? `${number.format(data.currencies[0].amount)} ${data.currencies[0].currency}` : '0'}
          detail={data && data.currencies.length > 1 ? `and ${data.currencies.slice(1).map((c) => `${number.format(c.amount)} ${c.currency}`).join(' · ')}` : data && `${number.format(data.currencies.reduce((a, c) => a + c.grants, 0))} grants`}
          loading={loading}
        />
      </section>

      {loading ? (
        <Card>
          <CardContent>
            <Skeleton className="h-64 w-full" />
          </CardContent>
        </Card>
      ) : empty ? (
        <Card>
          <EmptyState
            icon={ActivityIcon}
            title={`No events ${rangeLabel}`}
            description="Charts appear as the game sends events (POST /v1/events or the webhook) and players claim rewards. Try a longer range."
          />
        </Card>
      ) : (
        data && (
          <div className={`grid gap-4 transition-opacity xl:grid-cols-3 ${analytics.isPlaceholderData ? 'opacity-60' : ''}`} aria-busy={analytics.isPlaceholderData}>
            <ChartCard
              className="xl:col-span-3"
              title="Events per minute"
              description={data.bucket === 'minute' ? 'Each point is one minute.' : `Average per minute over each ${data.bucket}.`}
            >
              <EventRateChart
                points={points}
                label={`Events per minute ${rangeLabel}: ${number.format(data.totals.events)} events, peak ${number.format(Math.round(peak * 100) / 100)} per minute.`}
                formatTick={(ms) => (spansDays ? dayOnly.format(ms) : timeOfDay.format(ms))}
                formatLabel={(ms) => dayAndTime.format(ms)}
              />
            </ChartCard>
            <ChartCard className="xl:col-span-2" title="Completions and claims per mission" description="Every cycle of a recurring mission counts.">
              {missionRows.length === 0 ? (
                <p className="py-10 text-center text-sm text-muted-foreground">No mission completed or claimed {rangeLabel}.</p>
              ) : (
                <div className="space-y-4">
                  <MissionBarsChart
                    bars={missionRows.slice(0, 10)}
                    label={`Completions and claims per mission ${rangeLabel}${missionRows.length > 10 ? ' (the 10 most completed)' : ''}.`}
                  />
                  <Table aria-label="Completions and claims per mission">
                    <TableHeader>
                      <TableRow>
                        <TableHead>Mission</TableHead>
                        <TableHead className="text-right">Completions</TableHead>
                        <TableHead className="text-right">Claims</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {missionRows.map((m) => (
                        <TableRow key={m.missionId}>
                          <TableCell>
                            <span className="block truncate font-medium">{m.name}</span>
                            {m.name !== m.missionId && <span className="block truncate font-mono text-xs text-muted-foreground">{m.missionId}</span>}
                          </TableCell>
                          <TableCell className="text-right tabular-nums">{number.format(m.completions)}</TableCell>
                          <TableCell className="text-right tabular-nums">{number.format(m.claims)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </div>
              )}
            </ChartCard>
            <ChartCard title="Currency granted" description="By claims, per currency.">
              {data.currencies.length === 0 ? (
                <p className="py-10 text-center text-sm text-muted-foreground">No currency granted {rangeLabel}.</p>
              ) : (
                <div className="space-y-4">
                  <CurrencyChart bars={data.currencies} label={`Currency granted ${rangeLabel}: ${currencyTotal}.`} />
                  <Table aria-label="Currency granted">
                    <TableHeader>
                      <TableRow>
                        <TableHead>Currency</TableHead>
                        <TableHead className="text-right">Amount</TableHead>
                        <TableHead className="text-right">Grants</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {data.currencies.map((c) => (
                        <TableRow key={c.currency}>
                          <TableCell className="font-medium">{c.currency}</TableCell>
                          <TableCell className="text-right tabular-nums">{number.format(c.amount)}</TableCell>
                          <TableCell className="text-right tabular-nums">{number.format(c.grants)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </div>
              )}
            </ChartCard>
          </div>
        )
      )}
    </section>
  );
}

/** Spent against budget for every campaign that has one (GET …/campaigns: budgetSpent, budgetAlerts and budgetRefusals). */
function CampaignBudgetsCard({ appId }: { appId: string }) {
  const campaigns = useQuery({
    ...campaignsQuery(appId),
    refetchInterval: 30_000,
  });
  const budgeted = (campaigns.data ?? []).filter((c) => !c.archived && (c.budget?.length ?? 0) > 0);
  const alerting = budgeted.flatMap((c) => budgetRows(c).filter((r) => r.alert !== null || r.spent >= r.amount || r.refused !== null).map((r) => ({ c, r })));
  const now = useNow();
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle>Campaign budgets</CardTitle>
        <CardDescription>
          What each campaign’s missions granted against its payout budget. A claim that would pass a budget is refused; alerts are recorded at 80&nbsp;% and 100&nbsp;%.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {campaigns.isLoading ? (
          <Skeleton className="h-16 w-full" />
        ) : campaigns.error ? (
          <p className="text-sm text-destructive">{errorMessage(campaigns.error)}</p>
        ) : budgeted.length === 0 ? (
          <p className="text-sm text-muted-foreground">No campaign has a budget. Set one on the campaign (Campaigns → Edit → Payout budget).</p>
        ) : (
          <>
            {alerting.length > 0 && (
              <Alert variant="warning">
                <TriangleAlertIcon aria-hidden />
                <AlertTitle>Budget alerts</AlertTitle>
                <AlertDescription>
                  <ul>
                    {alerting.map(({ c, r }) => (
                      <li key={`${c.id}-${r.currency}`}>
                        {c.title}: {r.spent >= r.amount ? `the ${r.currency} budget is spent` : r.alert !== null ? `${r.alert} % of the ${r.currency} budget reached` : `the ${r.currency} budget`} ({number.format(r.spent)} of {number.format(r.amount)})
                        {r.refused && `; ${refusalText(r.refused, now)}`}
                      </li>
                    ))}
                  </ul>
                </AlertDescription>
              </Alert>
            )}
            <Table aria-label="Campaign budgets">
              <TableHeader>
                <TableRow>
                  <TableHead>Campaign</TableHead>
                  <TableHead>Spent against budget</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {budgeted.map((c) => (
                  <TableRow key={c.id}>
                    <TableCell className="align-top">
                      <Link href="/admin/campaigns" className={cn('block truncate font-medium underline-offset-4 hover:underline', focusRing)}>
                        {c.title}
                      </Link>
                      <span className="block truncate font-mono text-xs text-muted-foreground">{c.id}</span>
                    </TableCell>
                    <TableCell className="w-1/2">
                      <CampaignBudgets campaign={c} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** What players see of a live mission now (components/console/mission-status.ts). */
function MissionStatusBadge({ status }: { status: MissionStatus }) {
  return <Badge variant={MISSION_STATUS_BADGE[status]}>{MISSION_STATUS_LABELS[status]}</Badge>;
}

export function Dashboard() {
  const { staff, can } = useStaff();
  const { app, apps, isLoading: appsLoading } = useSelectedApp();
  const catalog = useQuery({
    queryKey: queryKeys.catalog(app?.id ?? ''),
    queryFn: () => adminFetch<CatalogExport>(`/api/admin/apps/${encodeURIComponent(app!.id)}/catalog`),
    enabled: !!app,
  });
  const loading = appsLoading || catalog.isLoading;
  const missions = React.useMemo(() => catalog.data?.missions ?? [], [catalog.data]);
  const missionTitles = React.useMemo(() => new Map(missions.map((m) => [m.id, m.title])), [missions]);
  const now = useNow();
  const campaigns = catalog.data?.campaigns ?? [];
  const campaignById = new Map(campaigns.map((c) => [c.id, c]));
  // One status word per mission: what players see now (Live, Scheduled, …).
  const statusOf = (m: (typeof missions)[number]) => missionStatus(m, m.campaignId ? campaignById.get(m.campaignId) : undefined, now);
  const missionCounts = missions.reduce((n, m) => n.set(statusOf(m), (n.get(statusOf(m)) ?? 0) + 1), new Map<MissionStatus, number>());
  const missionSummary = (['live', 'scheduled', 'ended', 'expired', 'archived'] as const)
    .filter((s) => missionCounts.has(s) || s === 'live')
    .map((s) => `${missionCounts.get(s) ?? 0} ${MISSION_STATUS_LABELS[s].toLowerCase()}`)
    .join(', ');
  const liveCampaigns = campaigns.filter((c) => !c.archived && c.startAt <= now && now < c.endAt).length;
  const scheduledCampaigns = campaigns.filter((c) => !c.archived && c.startAt > now).length;

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
        description={app ? `What players of ${app.name} are doing: events, mission completions and claims, and the currency granted.` : 'Activity of the selected app.'}
        breadcrumbs={[{ label: 'Console', href: '/admin' }, { label: app?.name ?? 'Dashboard' }]}
      />
      {app && can('analytics.read') ? (
        <AnalyticsPanel key={app.id} appId={app.id} missionTitles={missionTitles} />
      ) : (
        appsLoading && <Skeleton className="h-64 w-full" />
      )}
      {app && can('catalog.read') && <CampaignBudgetsCard key={`budgets-${app.id}`} appId={app.id} />}
      <div className="mt-6 grid gap-4 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Missions of {app?.name ?? 'this app'}</CardTitle>
            <CardDescription>
              {loading
                ? 'The catalog as players see it.'
                : `Missions: ${missionSummary}; ${liveCampaigns} live campaigns, ${scheduledCampaigns} scheduled. Authored in the console, or as code with GET and PUT /api/admin/apps/{appId}/catalog.`}
            </CardDescription>
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
                      <span className="block truncate text-xs text-muted-foreground">{describeMission(m, { titles: missionTitles }).summary}</span>
                    </span>
                    <MissionStatusBadge status={statusOf(m)} />
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
