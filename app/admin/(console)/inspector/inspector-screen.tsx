'use client';

// The Inspector: App + User ID → the player's missions (progress, status, why
// locked), balances, ledger and recent events, each expandable into the
// engine's verdict per mission; a live panel on the staff update stream: every
// event as it is stored (event.recorded, with its verdicts, also when it
// counted for nothing) goes straight into the panel and the recent events, and
// a change of the player (progress, balance) refreshes the view. No poll: the
// view is read when the stream (re)connects. A test event and token
// revocation. The URL keeps ?app=&user= so a link shows the same player.
// Missions and campaigns are named by title everywhere (./explain.ts Titles).
import * as React from 'react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ActivityIcon, BanIcon, RadioIcon, ChevronRightIcon, CoinsIcon, FilterIcon, ListChecksIcon, RefreshCwIcon, ScrollTextIcon, SearchCheckIcon, SendIcon } from 'lucide-react';
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
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Input, inputClass, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { adminFetch, errorMessage } from '@/components/console/api';
import { formatDateTime, formatRelative } from '@/components/console/format';
import { useStaff } from '@/components/console/staff-context';
import { useSelectedApp } from '@/components/console/use-selected-app';
import { cn } from '@/lib/cn';
import { fromLocalInput } from '@/lib/console/local-time';
import type { Inspection, InspectorVerdict, RecordedEventData } from '@/lib/contract/inspector';
import type { MissionProgress, ProgressStatus } from '@/lib/contract/progress';
import { adminUserPath } from '@/lib/contract/user-address';
import { describeMission } from '@/lib/missions/describe-mission';
import { useEventNames } from '../missions/use-missions';
import { AttributesCard } from './attributes-card';
import { DataRequestCard, GrantCard, MissionFixCard, NeverSeenNotice, NotesCard, PlayerSuggestions, RecentPlayers } from './desk';
import { describeLock, describeNameMismatches, describeProgress, describeVerdict, summarizeEvent, type Titles } from './explain';
import { isFiltered, NO_FILTER, useEventPages, type EventFilter } from './use-event-pages';
import { rewardsOf } from '@/lib/contract/mission';

type Target = { appId: string; userId: string };

const inspectionKey = (t: Target) => ['admin', 'inspector', t.appId, t.userId] as const;
const userPath = (t: Target, rest = '', query: Record<string, string> = {}) => adminUserPath(t.appId, t.userId, rest, query);

const STATUS_BADGE: Record<ProgressStatus, 'default' | 'success' | 'secondary' | 'warning' | 'outline'> = {
  active: 'default',
  completed: 'success',
  claimed: 'secondary',
  locked: 'warning',
};

function SearchForm({ initial, onInspect }: { initial: Target | null; onInspect(t: Target): void }) {
  const { apps, app } = useSelectedApp();
  const [appId, setAppId] = React.useState(initial?.appId ?? '');
  const [userId, setUserId] = React.useState(initial?.userId ?? '');
  // State adjusted while rendering, as React advises, not in an effect: a new
  // `initial` (from the URL) fills the form, and the app defaults to the selected one.
  const [shownInitial, setShownInitial] = React.useState(initial);
  if (shownInitial !== initial) {
    setShownInitial(initial);
    if (initial) {
      setAppId(initial.appId);
      setUserId(initial.userId);
    }
  }
  if (!appId && app) setAppId(app.id);
  return (
    <Card>
      <CardContent>
        <form
          className="grid gap-4 sm:grid-cols-[minmax(10rem,16rem)_1fr_auto] sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            if (appId && userId.trim()) onInspect({ appId, userId: userId.trim() });
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor="inspector-app">App</Label>
            <select id="inspector-app" className={inputClass} value={appId} onChange={(e) => setAppId(e.target.value)} required>
              {!apps?.length && <option value="">No apps</option>}
              {apps?.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.id})
                </option>
              ))}
            </select>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="inspector-user">User ID</Label>
            <Input
              id="inspector-user"
              value={userId}
              onChange={(e) => setUserId(e.target.value)}
              placeholder="The player’s id, or its start: suggestions as you type"
              required
              autoComplete="off"
              spellCheck={false}
              list="inspector-user-suggestions"
            />
            <PlayerSuggestions id="inspector-user-suggestions" appId={appId} typed={userId} />
          </div>
          <Button type="submit" disabled={!appId || !userId.trim()}>
            <SearchCheckIcon aria-hidden />
            Inspect
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function ProgressBar({ value, label }: { value: number; label: string }) {
  const pct = Math.round(value * 100);
  return (
    <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} className="h-2 w-full overflow-hidden rounded-full bg-muted">
      <div className="h-full rounded-full bg-primary transition-[width] duration-500" style={{ width: `${pct}%` }} />
    </div>
  );
}

/** A completed mission whose last claim its campaign's budget refused (409 budget_exhausted), with the time in the reader's zone. */
function ClaimRefusalLine({ refusal }: { refusal: NonNullable<Inspection['missions'][number]['claimRefusal']> }) {
  return (
    <p className="text-sm text-destructive" data-testid="claim-refusal">
      Claim refused: the campaign’s {refusal.currency} budget is spent ·{' '}
      <time dateTime={new Date(refusal.at).toISOString()}>{formatDateTime(refusal.at)}</time>
      <span className="text-muted-foreground">
        {' '}
        ({refusal.amount} {refusal.currency} asked{refusal.budget !== null ? `, budget ${refusal.budget}` : ''})
      </span>
    </p>
  );
}

function MissionsCard({ data, titles }: { data: Inspection; titles: Titles }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ListChecksIcon className="size-4 text-muted-foreground" aria-hidden />
          Missions
        </CardTitle>
        <CardDescription>Progress and status as the player sees them now.</CardDescription>
      </CardHeader>
      <CardContent>
        {data.missions.length === 0 ? (
          <p className="text-sm text-muted-foreground">This app has no missions.</p>
        ) : (
          <ul className="divide-y" aria-label="Missions">
            {data.missions.map(({ mission, status, progress, lock, claimRefusal }) => {
              const described = describeMission(mission, { progress, titles: titles.mission, timeZone: data.timeZone });
              return (
                <li key={mission.id} className="grid gap-2 py-3 first:pt-0 last:pb-0" data-mission={mission.id}>
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <div className="min-w-0">
                      <p className="font-medium">{mission.title}</p>
                      <p className="text-xs text-muted-foreground" data-testid="mission-criteria">
                        <code>{mission.id}</code> · {described.summary}
                        {mission.campaignId && <> · in “{titles.campaign(mission.campaignId)}”</>}
                      </p>
                    </div>
                    <div className="flex items-center gap-2">
                      <span className="text-sm tabular-nums text-muted-foreground" data-testid="mission-count">
                        {described.progress}
                      </span>
                      <Badge variant={STATUS_BADGE[status]}>{status}</Badge>
                    </div>
                  </div>
                  <ProgressBar value={described.ratio} label={`${mission.title} progress`} />
                  {lock && <p className="text-sm text-warning">{describeLock(lock, titles)}</p>}
                  {claimRefusal && <ClaimRefusalLine refusal={claimRefusal} />}
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The verdicts that say something about the event, mission by mission
 * (counted first), and the missions that count other event names as one
 * line: with "did you mean …?" when no mission reads the event's name.
 */
function VerdictList({ verdicts, titles }: { verdicts: InspectorVerdict[]; titles: Titles }) {
  const judged = verdicts.filter((v) => v.counted || v.code !== 'event_name_mismatch').sort((a, b) => Number(b.counted) - Number(a.counted));
  const names = describeNameMismatches(verdicts);
  return (
    <ul className="grid gap-1.5 pt-2" aria-label="Why, mission by mission">
      {judged.map((v) => (
        <li key={v.missionId} className={cn('grid gap-0.5 rounded-md border px-3 py-2 text-sm sm:grid-cols-[12rem_1fr]', v.counted && 'border-success/40 bg-success/5')}>
          <span className="font-medium">{titles.mission(v.missionId)}</span>
          <span>{describeVerdict(v, titles)}</span>
        </li>
      ))}
      {names && (
        <li className={cn('rounded-md border px-3 py-2 text-sm', names.alone ? 'border-warning/50 bg-warning/5' : 'text-muted-foreground')} data-testid="name-mismatch">
          {names.text}
        </li>
      )}
    </ul>
  );
}

/** A datetime-local value (the reader's zone) as unix ms; null when empty or not a time. */
function timeOf(value: string): number | null {
  const ms = fromLocalInput(value);
  return ms !== null && Number.isFinite(ms) ? ms : null;
}

/** The filter form's fields, applied together (Filter) or cleared (Clear). */
function EventFilterForm({ names, filter, onApply }: { names: string[]; filter: EventFilter; onApply(f: EventFilter): void }) {
  const [name, setName] = React.useState(filter.name);
  const [from, setFrom] = React.useState('');
  const [to, setTo] = React.useState('');
  return (
    <form
      className="grid gap-2 pb-4 sm:grid-cols-2"
      aria-label="Filter events"
      onSubmit={(e) => {
        e.preventDefault();
        onApply({ name: name.trim(), from: timeOf(from), to: timeOf(to) });
      }}
    >
      <div className="grid gap-1 sm:col-span-2">
        <Label htmlFor="events-name">Name</Label>
        <Input id="events-name" value={name} onChange={(e) => setName(e.target.value)} list="events-names" placeholder="any" autoComplete="off" />
        <datalist id="events-names">
          {names.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
      </div>
      <div className="grid gap-1">
        <Label htmlFor="events-from">From</Label>
        <Input id="events-from" type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} />
      </div>
      <div className="grid gap-1">
        <Label htmlFor="events-to">To</Label>
        <Input id="events-to" type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
      </div>
      <div className="flex gap-2 sm:col-span-2">
        <Button type="submit" variant="outline" size="sm">
          <FilterIcon aria-hidden />
          Filter
        </Button>
        {isFiltered(filter) && (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => {
              setName('');
              setFrom('');
              setTo('');
              onApply(NO_FILTER);
            }}
          >
            Clear
          </Button>
        )}
      </div>
    </form>
  );
}

function EventsCard({ target, data, titles }: { target: Target; data: Inspection; titles: Titles }) {
  const [filter, setFilter] = React.useState<EventFilter>(NO_FILTER);
  const pages = useEventPages(target, data, filter);
  const filtered = isFiltered(filter);
  const names = React.useMemo(() => [...new Set(data.events.map((e) => e.name))].sort(), [data.events]);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ActivityIcon className="size-4 text-muted-foreground" aria-hidden />
          {filtered ? 'Events' : 'Recent events'}
        </CardTitle>
        <CardDescription>
          {filtered
            ? 'The stored events that match, newest first (not live: clear the filter to see new events as they arrive).'
            : 'Newest first, live as they are stored. Open an event to see why it counted or not, mission by mission.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <EventFilterForm names={names} filter={filter} onApply={setFilter} />
        {pages.error ? (
          <p role="alert" className="text-sm text-destructive">{errorMessage(pages.error)}</p>
        ) : pages.loading ? (
          <p className="text-sm text-muted-foreground">Loading…</p>
        ) : pages.events.length === 0 ? (
          <p className="text-sm text-muted-foreground">{filtered ? 'No stored event of this player matches.' : 'No events from this player yet.'}</p>
        ) : (
          <ul className="grid gap-2" aria-label={filtered ? 'Matching events' : 'Recent events'}>
            {pages.events.map((e) => {
              const counted = e.verdicts?.filter((v) => v.counted).map((v) => titles.mission(v.missionId)) ?? [];
              const suggestion = e.verdicts && !counted.length ? describeNameMismatches(e.verdicts)?.suggestion : null;
              return (
                <li key={e.id} data-event={e.id}>
                  <details className="group rounded-lg border px-3 py-2 open:bg-muted/30">
                    <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 rounded-sm text-sm focus-visible:outline-2 focus-visible:outline-ring [&::-webkit-details-marker]:hidden">
                      <ChevronRightIcon className="size-4 transition-transform group-open:rotate-90" aria-hidden />
                      <code className="font-medium">{e.name}</code>
                      <span className="text-muted-foreground">{formatDateTime(e.timestamp)}</span>
                      {e.source !== 'api' && <Badge variant="outline">{e.source}</Badge>}
                      <span className="ml-auto text-xs text-muted-foreground">
                        {e.verdicts === null ? 'no verdicts stored' : counted.length ? `counted for ${counted.join(', ')}` : suggestion ? `counted for no mission · did you mean “${suggestion}”?` : 'counted for no mission'}
                      </span>
                    </summary>
                    <div className="pl-7">
                      <pre className="mt-2 overflow-x-auto rounded-md bg-muted px-3 py-2 text-xs">{JSON.stringify(e.payload)}</pre>
                      {e.verdicts === null ? (
                        <p className="pt-2 text-sm text-muted-foreground">This event was stored before verdicts were kept.</p>
                      ) : e.verdicts.length === 0 ? (
                        <p className="pt-2 text-sm text-muted-foreground">The app has no missions.</p>
                      ) : (
                        <VerdictList verdicts={e.verdicts} titles={titles} />
                      )}
                    </div>
                  </details>
                </li>
              );
            })}
          </ul>
        )}
        {pages.hasOlder && (
          <Button type="button" variant="outline" size="sm" className="mt-3" onClick={pages.loadOlder} disabled={pages.loadingOlder}>
            {pages.loadingOlder ? 'Loading…' : 'Show older events'}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}

function BalancesCard({ data, titles }: { data: Inspection; titles: Titles }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CoinsIcon className="size-4 text-muted-foreground" aria-hidden />
          Balances and ledger
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {data.balances.length === 0 ? (
          <p className="text-sm text-muted-foreground">No currency yet.</p>
        ) : (
          <dl className="grid grid-cols-2 gap-3" aria-label="Balances">
            {data.balances.map((b) => (
              <div key={b.currency} className="rounded-lg border px-3 py-2">
                <dt className="text-xs text-muted-foreground">{b.currency}</dt>
                <dd className="text-xl font-semibold tabular-nums" data-testid={`balance-${b.currency}`}>
                  {b.amount}
                </dd>
              </div>
            ))}
          </dl>
        )}
        <div>
          <h3 className="mb-2 flex items-center gap-2 text-sm font-medium">
            <ScrollTextIcon className="size-4 text-muted-foreground" aria-hidden />
            Ledger
          </h3>
          {data.ledger.length === 0 ? (
            <p className="text-sm text-muted-foreground">No grants yet.</p>
          ) : (
            <Table aria-label="Ledger">
              <TableHeader>
                <TableRow>
                  <TableHead>When</TableHead>
                  <TableHead>Grant</TableHead>
                  <TableHead>Mission or reason</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.ledger.map((l) => (
                  <TableRow key={l.id}>
                    <TableCell className="whitespace-nowrap text-muted-foreground">{formatRelative(l.createdAt)}</TableCell>
                    <TableCell className="tabular-nums">
                      {l.kind === 'currency' ? `${(l.amount ?? 0) > 0 ? '+' : ''}${l.amount} ${l.currency} (→ ${l.balanceAfter})` : l.kind === 'item' ? `${l.quantity} × ${l.itemId}` : `badge ${l.badgeId}`}
                    </TableCell>
                    <TableCell>
                      {l.missionId ? titles.mission(l.missionId) : l.reason ? (
                        <span>
                          {l.reason} <span className="text-xs text-muted-foreground">({l.actor?.replace(/^staff:/, '')})</span>
                        </span>
                      ) : (
                        '—'
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

type LiveState = 'connecting' | 'live' | 'reconnecting' | 'closed';
/** One message of the staff stream as heard; rendered with the titles of the moment (so the same after a reload). */
interface LiveMessage {
  key: string;
  type: string;
  data: Record<string, unknown>;
  at: number;
}

function summarize(m: LiveMessage, titles: Titles): string {
  const { type, data } = m;
  if (type === 'event.recorded') return summarizeEvent((data as unknown as RecordedEventData).verdicts, titles);
  if (type.startsWith('mission.')) {
    const missionId = String(data.missionId);
    return `“${titles.mission(missionId)}” ${describeProgress(missionId, data as unknown as MissionProgress, titles)} (${String(data.status)})`;
  }
  if (type === 'balance.changed') return `${String(data.currency)} = ${String(data.amount)}`;
  if (type === 'reward.granted') return `reward for “${titles.mission(String(data.missionId))}”`;
  return JSON.stringify(data).slice(0, 120);
}

interface LiveHandlers {
  /** A stored event (event.recorded), with its verdicts. */
  onEvent(event: RecordedEventData): void;
  /** Any other update: the player's state changed. */
  onChange(): void;
  /** The stream (re)connected: what happened while it was away is read from the API. */
  onOpen(): void;
}

/** The staff stream of the player: their updates and every stored event. */
function useLiveUpdates(target: Target | null, handlers: LiveHandlers): { state: LiveState; messages: LiveMessage[] } {
  const [state, setState] = React.useState<LiveState>('connecting');
  const [messages, setMessages] = React.useState<LiveMessage[]>([]);
  // Another player (or none): a fresh list and connection state, adjusted while rendering as React advises.
  const [shownTarget, setShownTarget] = React.useState(target);
  if (shownTarget !== target) {
    setShownTarget(target);
    setMessages([]);
    if (target) setState('connecting');
  }
  // The latest callbacks, without reconnecting when they change.
  const onEvent = React.useEffectEvent(handlers.onEvent);
  const onChange = React.useEffectEvent(handlers.onChange);
  const onOpen = React.useEffectEvent(handlers.onOpen);
  React.useEffect(() => {
    if (!target) return;
    const source = new EventSource(userPath(target, '/updates'));
    source.onopen = () => {
      setState('live');
      onOpen();
    };
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting');
    source.onmessage = (e: MessageEvent<string>) => {
      let update: { type: string; data: Record<string, unknown> };
      try {
        update = JSON.parse(e.data) as typeof update;
      } catch {
        return; // Not an update: ignore.
      }
      const key = update.type === 'event.recorded' ? `event:${String(update.data.id)}` : `${e.lastEventId}:${update.type}:${Date.now()}`;
      setMessages((list) => (list.some((m) => m.key === key) ? list : [{ key, type: update.type, data: update.data, at: Date.now() }, ...list].slice(0, 50)));
      if (update.type === 'event.recorded') onEvent(update.data as unknown as RecordedEventData);
      else onChange();
    };
    return () => source.close();
  }, [target]);
  return { state, messages };
}

const LIVE_LABEL: Record<LiveState, { text: string; variant: 'success' | 'warning' | 'secondary' | 'destructive' }> = {
  connecting: { text: 'Connecting', variant: 'secondary' },
  live: { text: 'Live', variant: 'success' },
  reconnecting: { text: 'Reconnecting', variant: 'warning' },
  closed: { text: 'Closed', variant: 'destructive' },
};

function LivePanel({ state, messages, titles }: { state: LiveState; messages: LiveMessage[]; titles: Titles }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center justify-between gap-2">
          <span className="flex items-center gap-2">
            <RadioIcon className="size-4 text-muted-foreground" aria-hidden />
            Live
          </span>
          <Badge variant={LIVE_LABEL[state].variant} data-testid="live-state">
            {LIVE_LABEL[state].text}
          </Badge>
        </CardTitle>
        <CardDescription>Every event as it is stored, with why it counted or not, and the updates the player’s game receives.</CardDescription>
      </CardHeader>
      <CardContent>
        <div role="log" aria-label="Live updates" className="max-h-80 overflow-y-auto">
          <ol className="grid gap-1.5 text-sm">
            {messages.length === 0 ? (
              <li className="text-muted-foreground">Waiting for the player’s next event…</li>
            ) : (
              messages.map((m) => {
                const event = m.type === 'event.recorded' ? (m.data as unknown as RecordedEventData) : null;
                const counted = event?.verdicts?.some((v) => v.counted) ?? false;
                return (
                  <li
                    key={m.key}
                    className={cn('grid grid-cols-[auto_1fr_auto] items-baseline gap-x-2 gap-y-0.5 rounded-md border px-2 py-1.5', event && !counted && 'border-warning/50')}
                    data-live={m.type}
                    data-live-event={event?.id}
                  >
                    {event ? (
                      <Badge variant={counted ? 'success' : 'warning'}>event</Badge>
                    ) : (
                      <Badge variant="outline">{m.type}</Badge>
                    )}
                    <span className="min-w-0">
                      {event && <code className="mr-1.5 font-medium">{event.name}</code>}
                      <span className={cn(!event && 'text-muted-foreground')}>{summarize(m, titles)}</span>
                    </span>
                    <time className="text-xs text-muted-foreground" dateTime={new Date(m.at).toISOString()}>
                      {new Date(m.at).toLocaleTimeString()}
                    </time>
                  </li>
                );
              })
            )}
          </ol>
        </div>
      </CardContent>
    </Card>
  );
}

function ActionsCard({ target, onDone, titles, playerEventName }: { target: Target; onDone(): void; titles: Titles; playerEventName: string | undefined }) {
  const { can } = useStaff();
  // The placeholder names an event the app has seen: the player's newest, else the app's most recent.
  const appNames = useEventNames(can('catalog.read') ? target.appId : undefined);
  const seenName = playerEventName ?? appNames.data?.find((n) => n.lastSeenAt !== null)?.name;
  const [name, setName] = React.useState('');
  const [payload, setPayload] = React.useState('{}');
  const [payloadError, setPayloadError] = React.useState<string | null>(null);
  const send = useMutation({
    mutationFn: (body: { name: string; payload: Record<string, unknown> }) =>
      adminFetch<{ eventId: string; missionsUpdated: string[] }>(userPath(target, '/events'), { method: 'POST', body }),
    onSuccess: (r) => {
      toast.success(r.missionsUpdated.length ? `Test event recorded: advanced ${r.missionsUpdated.join(', ')}` : 'Test event recorded: no mission advanced');
      onDone();
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const dryRun = useMutation({
    mutationFn: (body: { name: string; payload: Record<string, unknown> }) =>
      adminFetch<{ missionsUpdated: string[]; verdicts: Array<{ missionId: string; counted: boolean; code?: string }> }>(userPath(target, '/events', { dryRun: '1' }), { method: 'POST', body }),
    onError: (err) => toast.error(errorMessage(err)),
  });
  const revoke = useMutation({
    mutationFn: () => adminFetch(`/api/admin/apps/${encodeURIComponent(target.appId)}/revocations`, { method: 'POST', body: { userId: target.userId } }),
    onSuccess: () => toast.success(`Every token of ${target.userId} issued so far is revoked`),
    onError: (err) => toast.error(errorMessage(err)),
  });
  if (!can('players.test_event') && !can('players.revoke')) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Actions</CardTitle>
        <CardDescription>Written to the audit log under your name.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {can('players.test_event') && (
          <form
            className="grid gap-3"
            aria-label="Send a test event"
            onSubmit={(e) => {
              e.preventDefault();
              let parsed: unknown;
              try {
                parsed = JSON.parse(payload || '{}');
              } catch {
                dryRun.reset();
                return setPayloadError('Payload is not valid JSON');
              }
              if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
                dryRun.reset();
                return setPayloadError('Payload must be a JSON object');
              }
              setPayloadError(null);
              send.mutate({ name: name.trim(), payload: parsed as Record<string, unknown> });
            }}
          >
            <div className="grid gap-2">
              <Label htmlFor="test-event-name">Event name</Label>
              <Input id="test-event-name" value={name} onChange={(e) => setName(e.target.value)} placeholder={seenName ?? 'event_name'} required autoComplete="off" />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="test-event-payload">Payload (JSON)</Label>
              <Textarea
                id="test-event-payload"
                value={payload}
                onChange={(e) => setPayload(e.target.value)}
                className="font-mono text-xs"
                aria-invalid={payloadError !== null}
                aria-describedby={payloadError ? 'test-event-payload-error' : undefined}
              />
              {payloadError && (
                <p id="test-event-payload-error" className="text-sm text-destructive">
                  {payloadError}
                </p>
              )}
            </div>
            <p className="text-sm text-muted-foreground" id="test-event-real">
              A test event is real: it counts, can complete missions and reaches the player’s game. To compensate a player, use a grant or complete the mission; to see what an event would do, use <strong>Dry run</strong> (nothing is stored or sent).
            </p>
            <div className="grid grid-cols-2 gap-2">
              <Button
                type="button"
                variant="outline"
                disabled={dryRun.isPending || !name.trim()}
                onClick={() => {
                  let parsed: unknown;
                  try {
                    parsed = JSON.parse(payload || '{}');
                  } catch {
                    // The previous answer was for another payload: it goes with the invalid one.
                    dryRun.reset();
                    return setPayloadError('Payload is not valid JSON');
                  }
                  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
                    dryRun.reset();
                    return setPayloadError('Payload must be a JSON object');
                  }
                  setPayloadError(null);
                  dryRun.mutate({ name: name.trim(), payload: parsed as Record<string, unknown> });
                }}
              >
                <SearchCheckIcon aria-hidden />
                Dry run
              </Button>
              <Button type="submit" variant="outline" disabled={send.isPending || !name.trim()} aria-describedby="test-event-real">
                <SendIcon aria-hidden />
                Send test event
              </Button>
            </div>
            {dryRun.data && (
              <div role="status" aria-label="Dry run result" className="rounded-md border px-3 py-2 text-sm">
                <p className="font-medium">
                  Dry run: {dryRun.data.missionsUpdated.length ? `would advance ${dryRun.data.missionsUpdated.map((id) => `“${titles.mission(id)}”`).join(', ')}` : 'would count for nothing'}
                </p>
                <ul className="mt-1 grid gap-0.5 text-muted-foreground">
                  {(dryRun.data.verdicts as InspectorVerdict[])
                    .filter((v) => v.counted || v.code !== 'event_name_mismatch')
                    .map((v) => (
                      <li key={v.missionId}>
                        “{titles.mission(v.missionId)}”: {describeVerdict(v, titles)}
                      </li>
                    ))}
                  {describeNameMismatches(dryRun.data.verdicts as InspectorVerdict[]) && <li>{describeNameMismatches(dryRun.data.verdicts as InspectorVerdict[])!.text}</li>}
                </ul>
              </div>
            )}
          </form>
        )}
        {can('players.revoke') && (
          <AlertDialog>
            <AlertDialogTrigger asChild>
              <Button variant="outline" className="text-destructive">
                <BanIcon aria-hidden />
                Revoke tokens
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Revoke every token of {target.userId}?</AlertDialogTitle>
                <AlertDialogDescription>
                  Every token issued to this player so far stops working at once (their game gets 401 and must ask for a new one). Tokens issued afterwards work.
                </AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel>Cancel</AlertDialogCancel>
                <AlertDialogAction destructive onClick={() => revoke.mutate()}>
                  Revoke tokens
                </AlertDialogAction>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        )}
      </CardContent>
    </Card>
  );
}

/** A stored event heard on the stream, placed among the recent events as the API orders them (time, then arrival; at most 50). */
function withEvent(data: Inspection, event: RecordedEventData): Inspection {
  const { userId: _userId, ...row } = event;
  const events = [row, ...data.events.filter((e) => e.id !== row.id)]
    .sort((a, b) => b.timestamp - a.timestamp || b.receivedAt - a.receivedAt)
    .slice(0, 50);
  return { ...data, events };
}

function Inspected({ target }: { target: Target }) {
  const queryClient = useQueryClient();
  // No poll: the staff stream brings every stored event (placed straight into
  // the view) and every change of the player (which refreshes it); the view is
  // read again whenever the stream (re)connects, for what happened meanwhile.
  // The events heard on the stream, per player: a read of the view that was
  // answered before such an event was stored (and arrives after it) must not
  // drop it from the recent events, so every read is merged with them.
  const heard = React.useRef(new Map<string, RecordedEventData[]>());
  const heardKey = `${target.appId}\u0000${target.userId}`;
  const { data, isLoading, error, isFetching, refetch, dataUpdatedAt } = useQuery({
    queryKey: inspectionKey(target),
    queryFn: async () => {
      const read = await adminFetch<Inspection>(userPath(target));
      // Read the heard events after the answer arrived: those heard while it was on its way count too.
      return (heard.current.get(heardKey) ?? []).reduce(withEvent, read);
    },
  });
  const refresh = React.useCallback(() => void queryClient.invalidateQueries({ queryKey: inspectionKey(target) }), [queryClient, target]);
  const live = useLiveUpdates(target, {
    onEvent: (event) => {
      heard.current.set(heardKey, [...(heard.current.get(heardKey) ?? []), event].slice(-50));
      queryClient.setQueryData<Inspection>(inspectionKey(target), (old) => (old ? withEvent(old, event) : old));
    },
    onChange: refresh,
    onOpen: refresh,
  });
  const titles = React.useMemo<Titles>(() => {
    const missions = new Map(data?.missions.map((m) => [m.mission.id, m.mission]));
    const campaigns = new Map(data?.campaigns.map((c) => [c.id, c.title]));
    return { mission: (id) => missions.get(id)?.title ?? id, campaign: (id) => campaigns.get(id) ?? id, missionOf: (id) => missions.get(id) };
  }, [data]);

  if (error) {
    return (
      <p role="alert" className="text-sm text-destructive">
        Could not inspect {target.userId}: {errorMessage(error)}
      </p>
    );
  }
  // Two columns from 1280px: missions, balances and grants on the left; the
  // live panel and the recent events beside the missions, then notes and
  // actions, on the right. Narrower, one column in the order of a ticket:
  // missions, live, events, balances, grant, notes, actions (the column
  // wrappers are `contents` there, so each card's order applies).
  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <div className="flex flex-wrap items-center justify-between gap-2 xl:col-span-2">
        <p className="text-sm text-muted-foreground">
          Player <code className="font-medium text-foreground">{target.userId}</code> in <code className="font-medium text-foreground">{target.appId}</code>
          {dataUpdatedAt > 0 && <> · read at {new Date(dataUpdatedAt).toLocaleTimeString()}</>}
        </p>
        <Button variant="outline" size="sm" onClick={() => void refetch()} disabled={isFetching}>
          <RefreshCwIcon aria-hidden className={cn(isFetching && 'animate-spin')} />
          Refresh
        </Button>
      </div>
      <NeverSeenNotice target={target} data={data} />
      <div className="contents xl:grid xl:content-start xl:gap-6" data-testid="inspector-left">
        <div className="order-1">{isLoading || !data ? <Skeleton className="h-64" /> : <MissionsCard data={data} titles={titles} />}</div>
        <div className="order-4">{isLoading || !data ? <Skeleton className="h-40" /> : <BalancesCard data={data} titles={titles} />}</div>
        {data && <div className="order-4"><AttributesCard data={data} /></div>}
        {data && (
          <div className="order-5 empty:hidden">
            <GrantCard
              target={target}
              currencies={[...new Set([...data.balances.map((b) => b.currency), ...data.missions.flatMap((m) => rewardsOf(m.mission).flatMap((r) => (r.kind === 'currency' ? [r.currency] : [])))])]}
              onDone={refresh}
            />
          </div>
        )}
        {data && (
          <div className="order-5 empty:hidden">
            <MissionFixCard target={target} data={data} titleOf={titles.mission} onDone={refresh} />
          </div>
        )}
      </div>
      <div className="contents xl:grid xl:content-start xl:gap-6" data-testid="inspector-right">
        <div className="order-2">
          <LivePanel state={live.state} messages={live.messages} titles={titles} />
        </div>
        <div className="order-3">{isLoading || !data ? <Skeleton className="h-64" /> : <EventsCard target={target} data={data} titles={titles} />}</div>
        <div className="order-6 empty:hidden">
          <NotesCard target={target} />
        </div>
        <div className="order-7 empty:hidden">
          <ActionsCard target={target} onDone={refresh} titles={titles} playerEventName={data?.events[0]?.name} />
        </div>
        <div className="order-8 empty:hidden">
          <DataRequestCard target={target} onErased={() => void queryClient.invalidateQueries({ queryKey: ['admin'] })} />
        </div>
      </div>
    </div>
  );
}

export function InspectorScreen() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const appParam = params.get('app');
  const userParam = params.get('user');
  const target = React.useMemo<Target | null>(() => (appParam && userParam ? { appId: appParam, userId: userParam } : null), [appParam, userParam]);
  const { app } = useSelectedApp();

  return (
    <>
      <PageHeader
        title="Inspector"
        description="Why did (or didn’t) a player’s mission progress? Their missions, balances and events, explained by the criteria engine."
        breadcrumbs={[{ label: 'Console', href: '/admin' }, { label: 'Inspector' }]}
      />
      <div className="grid gap-6">
        <SearchForm
          initial={target}
          onInspect={(t) => {
            const next = new URLSearchParams(params.toString());
            next.set('app', t.appId);
            next.set('user', t.userId);
            router.replace(`${pathname}?${next.toString()}`);
          }}
        />
        {target ? (
          <Inspected key={`${target.appId}/${target.userId}`} target={target} />
        ) : (
          <>
            <Card>
              <EmptyState icon={SearchCheckIcon} title="Look up a player" description="Pick the app, type the player’s user id (or its start: the field suggests the players the app has seen) and press Inspect. The link can be shared." />
            </Card>
            {(appParam ?? app?.id) && <RecentPlayers appId={(appParam ?? app?.id)!} />}
          </>
        )}
      </div>
    </>
  );
}
