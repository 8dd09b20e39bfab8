'use client';

// The draft's Impact panel: replays the app's stored events of the last days
// with the live catalog and with the draft (POST …/draft/impact) and shows,
// per mission the draft adds, changes or removes, how many players would have
// completed it or been in progress, and what it would have paid, live → draft,
// differences in bold with a sentence a live-ops person reads at a glance.
// A mission not live yet (a new one, or one whose campaign has not started)
// is shown as if it had been live over the period (the report's `asIfLive`),
// and every payout also at the observed claim rate.
import * as React from 'react';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { adminFetch, appPath, errorMessage } from '@/components/console/api';
import { inputClass } from '@/components/ui/input';
import { formatDateTime } from '@/components/console/format';
import { cn } from '@/lib/cn';
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { impactReportSchema } from '@/lib/contract/release';

type Report = z.output<typeof impactReportSchema>;
type MissionImpact = Report['missions'][number];
type Payout = Record<string, number>;
type Counts = MissionImpact['live'];

const DAY_MS = 86_400_000;
const number = new Intl.NumberFormat('en-US');
const plural = (n: number, word: string) => `${number.format(n)} ${word}${n === 1 ? '' : 's'}`;
const payoutText = (p: Payout) => (Object.keys(p).length === 0 ? '—' : Object.entries(p).map(([c, n]) => `${number.format(n)} ${c}`).join(', '));
const samePayout = (a: Payout, b: Payout) => payoutText(a) === payoutText(b);
const beforeAfter = (a: string, b: string) => (a === b ? a : `${a} → ${b}`);

/** The figures the panel shows for a mission: as if live when a side was not live yet, else as judged. */
function shown(m: MissionImpact): { live: Counts; draft: Counts; payout: { live: Payout; draft: Payout }; atRate: { live: Payout; draft: Payout } | null } {
  return m.asIfLive
    ? { live: m.asIfLive.live, draft: m.asIfLive.draft, payout: m.asIfLive.payout, atRate: m.asIfLive.payoutAtClaimRate }
    : { live: m.live, draft: m.draft, payout: m.payout, atRate: m.payoutAtClaimRate };
}

/** "the observed claim rate (67 %)", "the app's observed claim rate (80 %)", or that none was observed. */
function rateText(rate: MissionImpact['claimRate']): string {
  if (rate.rate === null) return 'no claim rate observed (no completion in the period)';
  const percent = `${Math.round(rate.rate * 100)} %`;
  return rate.basis === 'mission' ? `this mission's observed claim rate (${percent})` : `the app's observed claim rate (${percent}; this mission has no history)`;
}

/** "Winter cup: its campaign has not started; if it had been live over the last 7 days: 12 players, 1,200 coins → 120,000 coins if every completion is claimed, …". */
function asIfLiveSummary(title: string, m: MissionImpact, days: number): string {
  const f = shown(m);
  const why = m.notLive.draft === 'new_mission' ? 'new mission' : m.notLive.draft === 'campaign_not_started' || m.notLive.live === 'campaign_not_started' ? 'its campaign has not started' : 'not live yet';
  const players = f.live.completed === f.draft.completed ? plural(f.draft.completed, 'player') : `${number.format(f.live.completed)} → ${plural(f.draft.completed, 'player')}`;
  const paid = beforeAfter(payoutText(f.payout.live), payoutText(f.payout.draft));
  const rated = f.atRate ? `, ${beforeAfter(payoutText(f.atRate.live), payoutText(f.atRate.draft))} at ${rateText(m.claimRate)}` : `; ${rateText(m.claimRate)}`;
  return `${title} (${why}): if it had been live over the last ${plural(days, 'day')}: ${players}, ${paid} if every completion is claimed${rated}`;
}

function Delta({ before, after, same }: { before: string; after: string; same: boolean }) {
  return same ? <span className="text-muted-foreground">{before}</span> : <span className="font-semibold">{`${before} → ${after}`}</span>;
}

/** "Ranked ace: 8 → 3 players would have completed, 400 gems → 150 gems". */
function summary(title: string, m: MissionImpact, days: number): string {
  if (m.asIfLive) return asIfLiveSummary(title, m, days);
  const players = m.live.completed === m.draft.completed ? `${plural(m.draft.completed, 'player')} would have completed (no change)` : `${m.live.completed} → ${plural(m.draft.completed, 'player')} would have completed`;
  const paid = samePayout(m.payout.live, m.payout.draft) ? '' : `, ${payoutText(m.payout.live)} → ${payoutText(m.payout.draft)}`;
  return `${title}: ${players}${paid}`;
}

export function ImpactCard({ appId, titles }: { appId: string; titles: Map<string, string> }) {
  const [days, setDays] = React.useState('30');
  const replay = useMutation({
    // The live catalog too: a mission the draft removes is named by its live title.
    mutationFn: async () => {
      const [report, live] = await Promise.all([
        adminFetch<Report>(appPath(appId, 'draft', 'impact'), { method: 'POST', body: { days: Number(days) } }),
        adminFetch<CatalogDocument>(appPath(appId, 'catalog')),
      ]);
      return { report, liveTitles: new Map(live.missions.map((m) => [m.id, m.title])) };
    },
  });
  const report = replay.data?.report;
  const titleOf = (id: string) => titles.get(id) ?? replay.data?.liveTitles.get(id) ?? id;
  const reportDays = report ? Math.round((report.to - report.from) / DAY_MS) : 0;
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Impact</CardTitle>
        <CardDescription>What the draft would have done to players over real events: the stored events are replayed with the live catalog and with the draft, from no progress. A mission not live yet (new, or its campaign has not started) is shown as if it had been live over the whole period. Payouts are given if every completion is claimed and at the observed claim rate. Nothing is changed.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap items-end gap-2">
          <div className="grid gap-1.5">
            <Label htmlFor="impact-days">Events of the last</Label>
            <select id="impact-days" className={cn(inputClass, 'w-auto')} value={days} onChange={(e) => setDays(e.target.value)}>
              <option value="7">7 days</option>
              <option value="30">30 days</option>
              <option value="90">90 days</option>
            </select>
          </div>
          <Button variant="secondary" onClick={() => replay.mutate()} disabled={replay.isPending}>
            {replay.isPending ? 'Replaying…' : 'Replay events'}
          </Button>
        </div>
        {replay.error && (
          <p role="alert" className="text-sm text-destructive">
            Could not replay: {errorMessage(replay.error)}
          </p>
        )}
        {report && (
          <>
            <p className="text-sm text-muted-foreground">
              {plural(report.events, 'event')} from {formatDateTime(report.from)} to {formatDateTime(report.to)}.
            </p>
            {report.missions.length === 0 ? (
              <p className="text-sm">The draft changes no mission.</p>
            ) : (
              <>
                <ul aria-label="Impact summary" className="grid gap-1 text-sm">
                  {report.missions.map((m) => (
                    <li key={m.missionId}>{summary(titleOf(m.missionId), m, reportDays)}</li>
                  ))}
                </ul>
                <div className="overflow-x-auto">
                  <Table aria-label="Impact">
                    <TableHeader>
                      <TableRow>
                        <TableHead className="whitespace-normal">Mission</TableHead>
                        <TableHead className="whitespace-normal">Change</TableHead>
                        <TableHead className="whitespace-normal">Evaluated</TableHead>
                        <TableHead className="whitespace-normal">Completed (live → draft)</TableHead>
                        <TableHead className="whitespace-normal">In progress (live → draft)</TableHead>
                        <TableHead className="whitespace-normal">Payout if every completion is claimed (live → draft)</TableHead>
                        <TableHead className="whitespace-normal">Claim rate</TableHead>
                        <TableHead className="whitespace-normal">Payout at the claim rate (live → draft)</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {report.missions.map((m) => {
                        const f = shown(m);
                        return (
                          <TableRow key={m.missionId}>
                            <TableCell>{titleOf(m.missionId)}</TableCell>
                            <TableCell>{m.change}</TableCell>
                            <TableCell>{m.asIfLive ? `as if live over the last ${plural(reportDays, 'day')}` : 'as it was'}</TableCell>
                            <TableCell>
                              <Delta before={String(f.live.completed)} after={String(f.draft.completed)} same={f.live.completed === f.draft.completed} />
                            </TableCell>
                            <TableCell>
                              <Delta before={String(f.live.inProgress)} after={String(f.draft.inProgress)} same={f.live.inProgress === f.draft.inProgress} />
                            </TableCell>
                            <TableCell>
                              <Delta before={payoutText(f.payout.live)} after={payoutText(f.payout.draft)} same={samePayout(f.payout.live, f.payout.draft)} />
                            </TableCell>
                            <TableCell>{m.claimRate.rate === null ? 'none observed' : `${Math.round(m.claimRate.rate * 100)} % (${m.claimRate.basis === 'mission' ? `${m.claimRate.claims} of ${m.claimRate.completions} claimed` : 'the app’s'})`}</TableCell>
                            <TableCell>
                              {f.atRate ? <Delta before={payoutText(f.atRate.live)} after={payoutText(f.atRate.draft)} same={samePayout(f.atRate.live, f.atRate.draft)} /> : '—'}
                            </TableCell>
                          </TableRow>
                        );
                      })}
                    </TableBody>
                  </Table>
                </div>
              </>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
