'use client';

// "Preview as a player": what GET /v1/missions would answer one player from
// the draft at a chosen time (POST …/draft/preview, which runs the very
// function /v1/missions runs): a stored player (their stored progress and
// attributes) or a hypothetical one (attributes and progress typed here,
// issue 40 §5; nothing is stored). The card
// names every mission by its title, says why a locked one is locked (a
// prerequisite not claimed yet, a campaign that has not started) and which
// missions of the draft the player would not see at all, and why.
import * as React from 'react';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, inputClass } from '@/components/ui/input';
import { cn } from '@/lib/cn';
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
type Answer = { who: string; hypothetical: boolean; at: number; list: MissionList };
type Mode = 'stored' | 'hypothetical';
type AttributeRow = { key: number; name: string; value: string };
type ProgressEntry = { count: string; status: '' | 'active' | 'completed' | 'claimed' };
type PreviewBody = { userId: string; at?: number } | { attributes: Record<string, string | number | boolean>; progress?: Record<string, { count?: number; status?: ProgressEntry['status'] }>; at?: number };

/** A typed attribute value as the audience language compares it: a number, true or false, else the text. */
function attributeValue(text: string): string | number | boolean {
  const t = text.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (t !== '' && /^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  return text;
}

/** The attribute names the draft's audiences filter on (missions and campaigns), and `timezone`: the suggestions of the name field. */
function audienceNames(doc: CatalogDocument): string[] {
  const names = new Set<string>(['timezone']);
  for (const item of [...doc.missions, ...doc.campaigns]) {
    for (const key of Object.keys(item.audience ?? {})) names.add(key);
  }
  return [...names].sort();
}

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
  const [mode, setMode] = React.useState<Mode>('stored');
  const [userId, setUserId] = React.useState('');
  const [rows, setRows] = React.useState<AttributeRow[]>([{ key: 0, name: '', value: '' }]);
  const [progress, setProgress] = React.useState<Record<string, ProgressEntry>>({});
  const [at, setAt] = React.useState('');
  const atMs = fromLocalInput(at);
  const badTime = atMs !== null && !Number.isFinite(atMs);
  const preview = useMutation({
    mutationFn: async (input: { body: PreviewBody; who: string }): Promise<Answer> => {
      const list = await adminFetch<MissionList>(appPath(appId, 'draft', 'preview'), { method: 'POST', body: input.body });
      return { who: input.who, hypothetical: !('userId' in input.body), at: input.body.at ?? Date.now(), list };
    },
  });
  const answer = preview.data;
  const titles = new Map(draft.missions.map((m) => [m.id, m.title]));
  const title = (id: string) => titles.get(id) ?? id;
  const listed = new Set(answer?.list.missions.map((m) => m.id));
  const hidden = answer ? draft.missions.filter((m) => !m.archived && !listed.has(m.id)) : [];
  const names = audienceNames(draft);
  const filled = rows.filter((r) => r.name.trim() !== '');
  const duplicate = filled.find((r, i) => filled.findIndex((o) => o.name.trim() === r.name.trim()) !== i);
  const canSubmit = !badTime && !preview.isPending && (mode === 'stored' ? userId.trim() !== '' : duplicate === undefined);

  const hypotheticalBody = (): { body: PreviewBody; who: string } => {
    const attributes = Object.fromEntries(filled.map((r) => [r.name.trim(), attributeValue(r.value)]));
    const given: Record<string, { count?: number; status?: ProgressEntry['status'] }> = {};
    for (const [id, entry] of Object.entries(progress)) {
      const one: { count?: number; status?: ProgressEntry['status'] } = {};
      if (entry.count.trim() !== '') one.count = Number(entry.count);
      if (entry.status !== '') one.status = entry.status;
      if (Object.keys(one).length > 0) given[id] = one;
    }
    const who = filled.length === 0 ? 'A player with no attributes' : `A player with ${filled.map((r) => `${r.name.trim()} = ${r.value.trim()}`).join(', ')}`;
    return { body: Object.keys(given).length > 0 ? { attributes, progress: given } : { attributes }, who };
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!canSubmit) return;
    const input = mode === 'stored' ? { body: { userId: userId.trim() } as PreviewBody, who: userId.trim() } : hypotheticalBody();
    preview.mutate(atMs === null ? input : { ...input, body: { ...input.body, at: atMs } });
  };
  const setRow = (key: number, patch: Partial<AttributeRow>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const setEntry = (id: string, patch: Partial<ProgressEntry>) => setProgress((all) => ({ ...all, [id]: { ...(all[id] ?? { count: '', status: '' }), ...patch } }));

  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Preview as a player</CardTitle>
        <CardDescription>
          What the game would show one player from this draft at a date you choose: a stored player’s real progress and attributes, or a hypothetical player’s attributes and progress typed here, read against the draft’s missions and campaigns. Nothing is changed or stored.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form className="grid gap-3" onSubmit={submit} aria-label="Preview as a player">
          <div className="flex flex-wrap gap-4" role="radiogroup" aria-label="Who">
            {(
              [
                ['stored', 'A stored player'],
                ['hypothetical', 'A hypothetical player'],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="flex items-center gap-2 text-sm">
                <input type="radio" name="preview-mode" value={value} checked={mode === value} onChange={() => setMode(value)} className="size-4 accent-primary" />
                {label}
              </label>
            ))}
          </div>
          {mode === 'hypothetical' && (
            <div className="grid gap-3">
              <fieldset className="grid gap-2">
                <legend className="mb-1 text-sm font-medium">Attributes</legend>
                <p className="text-xs text-muted-foreground">
                  As the game would set them (numbers and true/false are read as such); <code>timezone</code> (e.g. Asia/Tokyo) is the player’s calendar for daily and weekly missions. Names offered: those the draft’s audiences use.
                </p>
                <datalist id="preview-attribute-names">
                  {names.map((n) => (
                    <option key={n} value={n} />
                  ))}
                </datalist>
                {rows.map((r, i) => (
                  <div key={r.key} className="flex flex-wrap items-center gap-2" role="group" aria-label={`Attribute ${i + 1}`}>
                    <Input className="w-44" aria-label={`Attribute ${i + 1} name`} placeholder="name" value={r.name} onChange={(e) => setRow(r.key, { name: e.target.value })} list="preview-attribute-names" autoComplete="off" spellCheck={false} />
                    <Input className="w-44" aria-label={`Attribute ${i + 1} value`} placeholder="value" value={r.value} onChange={(e) => setRow(r.key, { value: e.target.value })} autoComplete="off" spellCheck={false} />
                    <Button type="button" variant="ghost" size="sm" onClick={() => setRows((all) => (all.length === 1 ? [{ key: r.key + 1, name: '', value: '' }] : all.filter((o) => o.key !== r.key)))}>
                      Remove
                    </Button>
                  </div>
                ))}
                <div>
                  <Button type="button" variant="outline" size="sm" onClick={() => setRows((all) => [...all, { key: Math.max(...all.map((o) => o.key)) + 1, name: '', value: '' }])}>
                    Add attribute
                  </Button>
                </div>
                {duplicate && (
                  <p role="alert" className="text-sm text-destructive">
                    The attribute “{duplicate.name.trim()}” is given twice.
                  </p>
                )}
              </fieldset>
              <details className="grid gap-2 text-sm">
                <summary className="cursor-pointer font-medium">Progress (optional): a new player has none</summary>
                <div className="mt-2 grid gap-2">
                  {draft.missions
                    .filter((m) => !m.archived)
                    .map((m) => (
                      <div key={m.id} className="flex flex-wrap items-center gap-2" role="group" aria-label={`Progress of ${m.title}`}>
                        <span className="w-56 truncate">{m.title}</span>
                        <Input
                          type="number"
                          min={0}
                          max={m.criteria.count}
                          className="w-24"
                          aria-label={`Count of ${m.title}`}
                          placeholder={`0–${m.criteria.count}`}
                          value={progress[m.id]?.count ?? ''}
                          onChange={(e) => setEntry(m.id, { count: e.target.value })}
                        />
                        <select className={cn(inputClass, 'w-auto pr-8')} aria-label={`Status of ${m.title}`} value={progress[m.id]?.status ?? ''} onChange={(e) => setEntry(m.id, { status: e.target.value as ProgressEntry['status'] })}>
                          <option value="">Status from the count</option>
                          <option value="active">In progress</option>
                          <option value="completed">Completed</option>
                          <option value="claimed">Claimed</option>
                        </select>
                      </div>
                    ))}
                </div>
              </details>
            </div>
          )}
          <div className="flex flex-wrap items-end gap-2">
            {mode === 'stored' && (
              <div className="grid gap-1.5">
                <Label htmlFor="preview-user">Player id</Label>
                <Input id="preview-user" className="w-56" value={userId} onChange={(e) => setUserId(e.target.value)} list="preview-user-suggestions" autoComplete="off" spellCheck={false} />
                <PlayerSuggestions id="preview-user-suggestions" appId={appId} typed={userId} />
              </div>
            )}
            <div className="grid gap-1.5">
              <Label htmlFor="preview-at">At</Label>
              <Input id="preview-at" type="datetime-local" className="w-auto" value={at} onChange={(e) => setAt(e.target.value)} aria-describedby="preview-at-zone" aria-invalid={badTime || undefined} />
            </div>
            <Button type="submit" variant="secondary" disabled={!canSubmit}>
              {preview.isPending ? 'Previewing…' : 'Preview'}
            </Button>
          </div>
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
              {answer.who} at {formatDateTime(answer.at)}: {answer.list.missions.length} mission{answer.list.missions.length === 1 ? '' : 's'} shown
              {Object.keys(answer.list.progress).length === 0
                ? answer.hypothetical
                  ? '; no progress given (a new player)'
                  : '; no progress stored for this player (a player never seen starts from nothing)'
                : ''}
              .
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
