'use client';

// "Preview as a player": what GET /v1/missions would answer one player from
// the draft at a chosen time (POST …/draft/preview, which runs the very
// function /v1/missions runs, on the player's stored progress). The card
// names every mission by its title, says why a locked one is locked (a
// prerequisite not claimed yet, a campaign that has not started) and which
// missions of the draft the player would not see at all, and why.
import * as React from 'react';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { adminFetch, appPath, errorMessage } from '@/components/console/api';
import { timeZoneLabel } from '@/components/console/campaign-phase';
import { formatDateTime } from '@/components/console/format';
import type { Draft } from '@/lib/contract/release';
import type { missionListSchema } from '@/lib/contract/v1';
import { fromLocalInput } from '@/lib/console/local-time';
import { describeMission } from '@/lib/missions/describe-mission';
import { PlayerSuggestions } from '../inspector/desk';

type MissionList = z.output<typeof missionListSchema>;
type CatalogDocument = Draft['catalog'];
type Answer = { userId: string; at: number; list: MissionList };

/** The player's state of one listed mission, in words. */
function stateOf(m: MissionList['missions'][number], p: MissionList['progress'][string] | undefined): string {
  if (m.locked) return 'Locked';
  if (!p) return 'Not started';
  switch (p.status) {
    case 'claimed':
      return 'Claimed';
    case 'completed':
      return 'Completed: can claim';
    case 'locked':
      return 'Locked';
    default:
      return 'In progress';
  }
}

/** Why a listed mission is locked for the player at `at`: its campaign has not started, or a prerequisite is not claimed. */
function lockReasons(m: MissionList['missions'][number], answer: Answer, doc: CatalogDocument, title: (id: string) => string): string[] {
  const reasons: string[] = [];
  const campaign = m.campaignId ? doc.campaigns.find((c) => c.id === m.campaignId) : undefined;
  if (campaign && campaign.startAt > answer.at) reasons.push(`Campaign ‘${campaign.title}’ starts ${formatDateTime(campaign.startAt)}`);
  for (const id of m.prerequisites) {
    if (answer.list.progress[id]?.status !== 'claimed') reasons.push(`Needs ‘${title(id)}’ claimed first`);
  }
  return reasons;
}

/** Why a mission of the draft is not in the player's list at `at`. */
function hiddenReason(m: CatalogDocument['missions'][number], at: number, doc: CatalogDocument): string {
  const campaign = m.campaignId ? doc.campaigns.find((c) => c.id === m.campaignId) : undefined;
  if (campaign && campaign.endAt <= at) return `its campaign ‘${campaign.title}’ ended ${formatDateTime(campaign.endAt)}`;
  if (m.expiresAt !== null && m.expiresAt <= at) return `it expired ${formatDateTime(m.expiresAt)}`;
  if (m.audience || campaign?.audience) return 'the player is not in its audience';
  return 'it cannot progress any more';
}

export function PreviewPlayerCard({ appId, draft }: { appId: string; draft: CatalogDocument }) {
  const [userId, setUserId] = React.useState('');
  const [at, setAt] = React.useState('');
  const atMs = fromLocalInput(at);
  const badTime = atMs !== null && !Number.isFinite(atMs);
  const preview = useMutation({
    mutationFn: async (input: { userId: string; at?: number }): Promise<Answer> => {
      const list = await adminFetch<MissionList>(appPath(appId, 'draft', 'preview'), { method: 'POST', body: input });
      return { userId: input.userId, at: input.at ?? Date.now(), list };
    },
  });
  const answer = preview.data;
  const titles = new Map(draft.missions.map((m) => [m.id, m.title]));
  const title = (id: string) => titles.get(id) ?? id;
  const listed = new Set(answer?.list.missions.map((m) => m.id));
  const hidden = answer ? draft.missions.filter((m) => !m.archived && !listed.has(m.id)) : [];

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const id = userId.trim();
    if (id === '' || badTime) return;
    preview.mutate(atMs === null ? { userId: id } : { userId: id, at: atMs });
  };

  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Preview as a player</CardTitle>
        <CardDescription>
          What the game would show one player from this draft at a date you choose: the player’s real progress, read against the draft’s missions and campaigns. Nothing is changed.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form className="flex flex-wrap items-end gap-2" onSubmit={submit} aria-label="Preview as a player">
          <div className="grid gap-1.5">
            <Label htmlFor="preview-user">Player id</Label>
            <Input id="preview-user" className="w-56" value={userId} onChange={(e) => setUserId(e.target.value)} list="preview-user-suggestions" autoComplete="off" spellCheck={false} />
            <PlayerSuggestions id="preview-user-suggestions" appId={appId} typed={userId} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="preview-at">At</Label>
            <Input id="preview-at" type="datetime-local" className="w-auto" value={at} onChange={(e) => setAt(e.target.value)} aria-describedby="preview-at-zone" aria-invalid={badTime || undefined} />
          </div>
          <Button type="submit" variant="secondary" disabled={preview.isPending || userId.trim() === '' || badTime}>
            {preview.isPending ? 'Previewing…' : 'Preview'}
          </Button>
        </form>
        <p id="preview-at-zone" className="-mt-2 text-xs text-muted-foreground">
          {atMs === null ? 'Empty: now. ' : ''}Your time zone: {timeZoneLabel(atMs !== null && Number.isFinite(atMs) ? atMs : undefined)}
        </p>
        {preview.error && (
          <p role="alert" className="text-sm text-destructive">
            Could not preview: {errorMessage(preview.error)}
          </p>
        )}
        {answer && (
          <section aria-label="Player preview" className="grid gap-3">
            <p className="text-sm text-muted-foreground">
              {answer.userId} at {formatDateTime(answer.at)}: {answer.list.missions.length} mission{answer.list.missions.length === 1 ? '' : 's'} shown
              {Object.keys(answer.list.progress).length === 0 ? '; no progress stored for this player (a player never seen starts from nothing)' : ''}.
            </p>
            {answer.list.missions.length > 0 && (
              <div className="overflow-x-auto">
                <Table aria-label="Missions the player would see">
                  <TableHeader>
                    <TableRow>
                      <TableHead>Mission</TableHead>
                      <TableHead>State</TableHead>
                      <TableHead>Progress</TableHead>
                      <TableHead>Why locked</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {answer.list.missions.map((m) => {
                      const p = answer.list.progress[m.id];
                      // The draft's mission (its audience too: /v1 leaves it out), in the console's words.
                      const described = describeMission(draft.missions.find((d) => d.id === m.id) ?? m, { progress: p, titles: title });
                      const reasons = m.locked ? lockReasons(m, answer, draft, title) : [];
                      return (
                        <TableRow key={m.id}>
                          <TableCell>
                            <span className="font-medium">{m.title}</span>
                            <span className="block max-w-80 text-xs text-muted-foreground" data-hint="measure">
                              {described.summary}
                            </span>
                          </TableCell>
                          <TableCell>{stateOf(m, p)}</TableCell>
                          <TableCell className="tabular-nums">
                            {p ? described.progress : '—'}
                            {described.window ? <span className="ml-1 text-xs text-muted-foreground">({described.window})</span> : null}
                          </TableCell>
                          <TableCell>{m.locked ? (reasons.length > 0 ? reasons.join('; ') : 'Locked') : <span className="text-muted-foreground">—</span>}</TableCell>
                        </TableRow>
                      );
                    })}
                  </TableBody>
                </Table>
              </div>
            )}
            {hidden.length > 0 && (
              <div className="grid gap-1 text-sm">
                <p className="font-medium">Not shown to this player</p>
                <ul aria-label="Missions not shown" className="grid gap-0.5 text-muted-foreground">
                  {hidden.map((m) => (
                    <li key={m.id}>
                      ‘{m.title}’: {hiddenReason(m, answer.at, draft)}
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </section>
        )}
      </CardContent>
    </Card>
  );
}
