'use client';

// The draft's Impact panel: replays the app's stored events of the last days
// with the live catalog and with the draft (POST …/draft/impact) and shows,
// per mission the draft adds, changes or removes, how many players would have
// completed it or been in progress, and what it would have paid, live → draft,
// differences in bold with a sentence a live-ops person reads at a glance.
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
type Payout = Record<string, number>;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const payoutText = (p: Payout) => (Object.keys(p).length === 0 ? '—' : Object.entries(p).map(([c, n]) => `${n} ${c}`).join(', '));
const samePayout = (a: Payout, b: Payout) => payoutText(a) === payoutText(b);

function Delta({ before, after, same }: { before: string; after: string; same: boolean }) {
  return same ? <span className="text-muted-foreground">{before}</span> : <span className="font-semibold">{`${before} → ${after}`}</span>;
}

/** "Ranked ace: 8 → 3 players would have completed, 400 gems → 150 gems". */
function summary(title: string, m: Report['missions'][number]): string {
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
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Impact</CardTitle>
        <CardDescription>What the draft would have done to players over real events: the stored events are replayed with the live catalog and with the draft, from no progress. Nothing is changed.</CardDescription>
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
                    <li key={m.missionId}>{summary(titleOf(m.missionId), m)}</li>
                  ))}
                </ul>
                <div className="overflow-x-auto">
                  <Table aria-label="Impact">
                    <TableHeader>
                      <TableRow>
                        <TableHead>Mission</TableHead>
                        <TableHead>Change</TableHead>
                        <TableHead>Completed (live → draft)</TableHead>
                        <TableHead>In progress (live → draft)</TableHead>
                        <TableHead>Payout (live → draft)</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {report.missions.map((m) => (
                        <TableRow key={m.missionId}>
                          <TableCell>{titleOf(m.missionId)}</TableCell>
                          <TableCell>{m.change}</TableCell>
                          <TableCell>
                            <Delta before={String(m.live.completed)} after={String(m.draft.completed)} same={m.live.completed === m.draft.completed} />
                          </TableCell>
                          <TableCell>
                            <Delta before={String(m.live.inProgress)} after={String(m.draft.inProgress)} same={m.live.inProgress === m.draft.inProgress} />
                          </TableCell>
                          <TableCell>
                            <Delta before={payoutText(m.payout.live)} after={payoutText(m.payout.draft)} same={samePayout(m.payout.live, m.payout.draft)} />
                          </TableCell>
                        </TableRow>
                      ))}
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
