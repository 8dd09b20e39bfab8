'use client';

// The Inspector's support-desk parts: player suggestions as the User ID is
// typed, the app's recent players, a plain "never seen" (or "erased") notice, a currency
// grant or correction with its reason, notes, a mission reset or completion
// (each in a dialog asking why), and data requests (export, erasure). Each
// write goes through the admin API, which audits it under the signed-in
// member's name; ReasonField and ReasonDialog are the one reason form they share.
import * as React from 'react';
import Link from 'next/link';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2Icon, CoinsIcon, DownloadIcon, NotebookPenIcon, RotateCcwIcon, ShieldAlertIcon, Trash2Icon, UserRoundSearchIcon, UserXIcon, WrenchIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input, inputClass, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { adminFetch, ApiError, errorMessage } from '@/components/console/api';
import { countOf, formatDateTime, formatRelative } from '@/components/console/format';
import { useStaff } from '@/components/console/staff-context';
import { useApps } from '@/components/console/use-selected-app';
import { EconomyPicker } from '@/components/console/economy-picker';
import { grantLimitOf } from '@/lib/contract/app';
import type { ErasureResult, MissionActionResult, Note, UserExport, UserPage } from '@/lib/contract/desk';
import type { Inspection } from '@/lib/contract/inspector';
import type { MissionWindow } from '@/lib/contract/mission';
import { adminUserPath } from '@/lib/contract/user-address';

type Target = { appId: string; userId: string };

const usersPath = (appId: string, query: string, limit: number) =>
  `/api/admin/apps/${encodeURIComponent(appId)}/users?limit=${limit}${query ? `&query=${encodeURIComponent(query)}` : ''}`;
const userPath = (t: Target, rest = '') => adminUserPath(t.appId, t.userId, rest);

/** The text after it stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = React.useState(value);
  React.useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** A <datalist> of the app's players whose id contains what is typed, in any case (most recently seen first). */
export function PlayerSuggestions({ id, appId, typed }: { id: string; appId: string; typed: string }) {
  const query = useDebounced(typed.trim(), 150);
  const { data } = useQuery({
    queryKey: ['admin', 'users', appId, query, 8],
    queryFn: () => adminFetch<UserPage>(usersPath(appId, query, 8)),
    enabled: Boolean(appId),
    staleTime: 5_000,
  });
  return (
    <datalist id={id}>
      {data?.users.map((u) => (
        <option key={u.userId} value={u.userId}>
          {`seen ${formatRelative(u.lastSeenAt)} · ${countOf(u.events, 'event')}`}
        </option>
      ))}
    </datalist>
  );
}

/** The app's most recently seen players, as links to inspect them. */
export function RecentPlayers({ appId }: { appId: string }) {
  const { data, isLoading, error } = useQuery({
    queryKey: ['admin', 'users', appId, '', 10],
    queryFn: () => adminFetch<UserPage>(usersPath(appId, '', 10)),
    enabled: Boolean(appId),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <UserRoundSearchIcon className="size-4 text-muted-foreground" aria-hidden />
          Recent players
        </CardTitle>
        <CardDescription>The players of <code>{appId}</code> seen most recently. Type any part of an id above to find others.</CardDescription>
      </CardHeader>
      <CardContent>
        {error ? (
          <p role="alert" className="text-sm text-destructive">{errorMessage(error)}</p>
        ) : isLoading ? (
          <p className="text-sm text-muted-foreground">Loading…</p>
        ) : !data?.users.length ? (
          <p className="text-sm text-muted-foreground">This app has not seen any player yet.</p>
        ) : (
          <ul className="divide-y" aria-label="Recent players">
            {data.users.map((u) => (
              <li key={u.userId} className="flex flex-wrap items-baseline justify-between gap-2 py-2">
                <Link className="font-mono text-sm underline-offset-4 hover:underline" href={`/admin/inspector?app=${encodeURIComponent(appId)}&user=${encodeURIComponent(u.userId)}`}>
                  {u.userId}
                </Link>
                <span className="text-xs text-muted-foreground">
                  seen {formatRelative(u.lastSeenAt)} · {countOf(u.events, 'event')} · first {formatDateTime(u.firstSeenAt)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** The actor as staff read it: the e-mail of a staff member, else the label (admin-api-key). */
const actorName = (actor: string) => actor.replace(/^staff:/, '');

/**
 * Says plainly when the app holds nothing of this user id: erased (when, by
 * whom, why, from the audit log), or never seen (a typo, or another app).
 */
export function NeverSeenNotice({ target, data }: { target: Target; data: Inspection | undefined }) {
  if (!data || data.seen || data.events.length > 0) return null;
  const { erasure } = data;
  if (erasure) {
    return (
      <Alert variant="warning" className="xl:col-span-2" data-testid="erased">
        <UserXIcon aria-hidden />
        <AlertTitle>
          <code>{target.userId}</code> was erased on {formatDateTime(erasure.erasedAt)} by {actorName(erasure.actor)}
          {erasure.reason ? `: ${erasure.reason}` : ''}
        </AlertTitle>
        <AlertDescription>A data-erasure request removed everything stored about this player; the audit log keeps who erased them, when and why. A new event from the same id starts a new, empty player.</AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert variant="warning" className="xl:col-span-2" data-testid="never-seen">
      <UserXIcon aria-hidden />
      <AlertTitle>
        <code>{target.appId}</code> has never seen <code>{target.userId}</code>
      </AlertTitle>
      <AlertDescription>
        No event of this user id is stored, so everything below is empty. Check the id (the User ID field suggests the players the app has seen) or the app.
      </AlertDescription>
    </Alert>
  );
}

/** The shortest reason the API takes (lib/contract/desk.ts: 3 to 500 characters). */
const REASON = { min: 3, max: 500 } as const;
const reasonValid = (text: string) => text.trim().length >= REASON.min && text.trim().length <= REASON.max;

/** The required "why" of every desk write: the ledger (for a grant) and the audit log keep it. */
function ReasonField({ id, value, onChange, placeholder = 'Ticket #4411: ranked win not counted' }: { id: string; value: string; onChange(value: string): void; placeholder?: string }) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Reason</Label>
      <Input id={id} value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} required minLength={REASON.min} maxLength={REASON.max} autoComplete="off" />
    </div>
  );
}

/**
 * A dialog that asks why before it acts: a title, what will happen, the
 * reason field and the confirming button (disabled until the reason is long
 * enough). It stays open on an error (shown inside) and closes on success.
 */
function ReasonDialog({
  open,
  onOpenChange,
  id,
  title,
  description,
  confirmLabel,
  destructive = false,
  pending,
  error,
  onConfirm,
  children,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  id: string;
  title: React.ReactNode;
  description: React.ReactNode;
  confirmLabel: string;
  destructive?: boolean;
  pending: boolean;
  error: string | null;
  onConfirm(reason: string): void;
  children?: React.ReactNode;
}) {
  const [reason, setReason] = React.useState('');
  const [shownOpen, setShownOpen] = React.useState(open);
  if (shownOpen !== open) {
    setShownOpen(open);
    if (open) setReason('');
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <form
          className="grid gap-5"
          aria-label={typeof title === 'string' ? title : confirmLabel}
          onSubmit={(e) => {
            e.preventDefault();
            if (reasonValid(reason)) onConfirm(reason.trim());
          }}
        >
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          {children}
          <ReasonField id={id} value={reason} onChange={setReason} />
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={pending || !reasonValid(reason)}>
              {pending ? 'Working…' : confirmLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** A grant as the form holds it until it is confirmed. */
type PendingGrant = { currency: string; amount: number; reason: string; before: number };

/**
 * Grant (positive) or correct (negative) a currency, with the reason the ledger and audit keep.
 * The support role's limits of the currency (the app's grantLimits, lib/contract/app.ts) are shown
 * beside the amount, and an amount above the per-grant limit is not sent (the server is the
 * authority: past the day's limit it answers 403, shown as is). Submitting asks for confirmation
 * with the effect ("gold: 50 → 550 for player-42"); a player the app has never seen asks again
 * ("Grant anyway?") and is sent with createUser: true.
 */
export function GrantCard({ target, currencies, onDone }: { target: Target; currencies: string[]; onDone(): void }) {
  const { staff, can } = useStaff();
  const queryClient = useQueryClient();
  const app = useApps().data?.find((a) => a.id === target.appId);
  const [currency, setCurrency] = React.useState(currencies[0] ?? '');
  const [amount, setAmount] = React.useState('');
  const [reason, setReason] = React.useState('');
  const [pendingGrant, setPendingGrant] = React.useState<PendingGrant | null>(null);
  const [step, setStep] = React.useState<'confirm' | 'never-seen'>('confirm');
  // One key per intended grant: a double submit or a retry after a lost answer applies it once.
  const [key, setKey] = React.useState(() => crypto.randomUUID());
  const grant = useMutation({
    mutationFn: (body: { currency: string; amount: number; reason: string; createUser?: true }) =>
      adminFetch<{ balance: { amount: number } }>(userPath(target, '/grants'), { method: 'POST', body, headers: { 'Idempotency-Key': key } }),
    onSuccess: (r, body) => {
      toast.success(`${body.amount > 0 ? 'Granted' : 'Corrected'} ${Math.abs(body.amount)} ${body.currency}: balance now ${r.balance.amount}`);
      setAmount('');
      setReason('');
      setPendingGrant(null);
      setKey(crypto.randomUUID());
      onDone();
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'user_not_found') setStep('never-seen');
    },
  });
  if (!can('players.adjust')) return null;
  const n = Number(amount);
  const limits = grantLimitOf(app?.grantLimits ?? null, currency.trim());
  const bounded = staff.role === 'support';
  const overLimit = bounded && limits.perGrant !== null && Number.isInteger(n) && Math.abs(n) > limits.perGrant;
  const valid = currency.trim() !== '' && Number.isInteger(n) && n !== 0 && !overLimit && reasonValid(reason);
  const limitText = [
    limits.perGrant === null ? 'no limit per grant' : `at most ${limits.perGrant.toLocaleString('en')} per grant`,
    limits.perStaffPerDay === null ? 'no daily limit' : `${limits.perStaffPerDay.toLocaleString('en')} per staff member a day (UTC)`,
  ].join(', ');
  const send = (grantBody: PendingGrant, createUser: boolean) =>
    grant.mutate({ currency: grantBody.currency, amount: grantBody.amount, reason: grantBody.reason, ...(createUser ? { createUser: true as const } : {}) });
  const after = pendingGrant ? pendingGrant.before + pendingGrant.amount : 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CoinsIcon className="size-4 text-muted-foreground" aria-hidden />
          Grant or correct currency
        </CardTitle>
        <CardDescription>A positive amount credits, a negative one corrects (never below zero). The ledger and the audit log keep your name and reason.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-3"
          aria-label="Grant or correct currency"
          onSubmit={(e) => {
            e.preventDefault();
            if (!valid) return;
            // The balance the Inspector shows now: the effect the confirmation states.
            const view = queryClient.getQueryData<Inspection>(['admin', 'inspector', target.appId, target.userId]);
            const before = view?.balances.find((b) => b.currency === currency.trim())?.amount ?? 0;
            grant.reset();
            setStep('confirm');
            setPendingGrant({ currency: currency.trim(), amount: n, reason: reason.trim(), before });
          }}
        >
          <div className="grid grid-cols-2 gap-3">
            <div className="grid gap-2">
              <Label htmlFor="grant-currency">Currency</Label>
              <EconomyPicker id="grant-currency" kind="currency" source="live" appId={target.appId} value={currency} onChange={setCurrency} />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="grant-amount">Amount</Label>
              <Input
                id="grant-amount"
                type="number"
                step={1}
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                placeholder="50 or -20"
                required
                aria-invalid={overLimit || undefined}
                aria-describedby="grant-limit"
              />
              <p id="grant-limit" data-testid="grant-limit" className={overLimit ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}>
                {overLimit
                  ? `Above your limit: at most ${limits.perGrant!.toLocaleString('en')} ${currency.trim()} per grant`
                  : bounded
                    ? `Your limit: ${limitText}`
                    : `Support’s limit: ${limitText}; none for admins (audited when over)`}
              </p>
            </div>
          </div>
          <ReasonField id="grant-reason" value={reason} onChange={setReason} />
          <Button type="submit" variant="outline" disabled={grant.isPending || !valid}>
            <CoinsIcon aria-hidden />
            {n < 0 ? 'Correct balance' : 'Grant'}
          </Button>
        </form>
        <Dialog open={pendingGrant !== null} onOpenChange={(open) => !open && !grant.isPending && setPendingGrant(null)}>
          <DialogContent>
            <DialogHeader>
              <DialogTitle>{step === 'never-seen' ? 'Grant to a player never seen?' : pendingGrant && pendingGrant.amount < 0 ? 'Confirm the correction' : 'Confirm the grant'}</DialogTitle>
              <DialogDescription data-testid="grant-effect">
                {pendingGrant && (
                  <>
                    <span className="font-mono">
                      {pendingGrant.currency}: {pendingGrant.before.toLocaleString('en')} → {after.toLocaleString('en')}
                    </span>{' '}
                    for <span className="font-mono">{target.userId}</span>
                  </>
                )}
              </DialogDescription>
            </DialogHeader>
            {step === 'never-seen' && (
              <p role="alert" className="text-sm">
                This player has never been seen by {app?.name ?? target.appId}. Grant anyway?
              </p>
            )}
            {grant.error && !(grant.error instanceof ApiError && grant.error.code === 'user_not_found') && (
              <p role="alert" className="text-sm text-destructive">
                {errorMessage(grant.error)}
              </p>
            )}
            <DialogFooter>
              <Button type="button" variant="outline" disabled={grant.isPending} onClick={() => setPendingGrant(null)}>
                Cancel
              </Button>
              <Button type="button" disabled={grant.isPending} onClick={() => pendingGrant && send(pendingGrant, step === 'never-seen')}>
                {grant.isPending ? 'Working…' : step === 'never-seen' ? 'Grant anyway' : pendingGrant && pendingGrant.amount < 0 ? 'Correct balance' : 'Grant'}
              </Button>
            </DialogFooter>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}

/** Support notes on the player, newest first, and a form to add one. */
export function NotesCard({ target }: { target: Target }) {
  const { can } = useStaff();
  const queryClient = useQueryClient();
  const queryKey = ['admin', 'notes', target.appId, target.userId];
  const { data } = useQuery({ queryKey, queryFn: () => adminFetch<{ notes: Note[] }>(userPath(target, '/notes')) });
  const [text, setText] = React.useState('');
  const add = useMutation({
    mutationFn: (body: { text: string }) => adminFetch(userPath(target, '/notes'), { method: 'POST', body }),
    onSuccess: () => {
      setText('');
      void queryClient.invalidateQueries({ queryKey });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <NotebookPenIcon className="size-4 text-muted-foreground" aria-hidden />
          Notes
        </CardTitle>
        <CardDescription>
          For staff only: the player never sees them. What staff did to this player:{' '}
          <Link className="underline underline-offset-4" href={`/admin/audit?app=${encodeURIComponent(target.appId)}&user=${encodeURIComponent(target.userId)}`}>
            the audit log
          </Link>
          .
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!data?.notes.length ? (
          <p className="text-sm text-muted-foreground">No notes yet.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Notes">
            {data.notes.map((n) => (
              <li key={n.id} className="rounded-md border px-3 py-2 text-sm">
                <p className="whitespace-pre-wrap">{n.text}</p>
                <p className="mt-1 text-xs text-muted-foreground">
                  {n.author.replace(/^staff:/, '')} · <time dateTime={new Date(n.createdAt).toISOString()}>{formatDateTime(n.createdAt)}</time>
                </p>
              </li>
            ))}
          </ul>
        )}
        {can('players.adjust') && (
          <form
            className="grid gap-2"
            aria-label="Add a note"
            onSubmit={(e) => {
              e.preventDefault();
              if (text.trim()) add.mutate({ text: text.trim() });
            }}
          >
            <Label htmlFor="note-text">New note</Label>
            <Textarea id="note-text" value={text} onChange={(e) => setText(e.target.value)} maxLength={2000} placeholder="What the player reported, what you did" />
            <Button type="submit" variant="outline" disabled={add.isPending || !text.trim()}>
              Add note
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}

type MissionAction = 'reset' | 'complete';
const MISSION_ACTION = {
  reset: {
    title: 'Reset the mission’s progress?',
    confirm: 'Reset progress',
    describe: (title: string, userId: string, window: MissionWindow) =>
      `${title} goes back to no progress for ${userId}${window === 'lifetime' ? '' : ` in the current ${window} window`}, and can be earned again. A reward already claimed is not taken back: correct the balance for that.`,
    done: (title: string) => `${title}: progress reset`,
  },
  complete: {
    title: 'Complete the mission for the player?',
    confirm: 'Complete mission',
    describe: (title: string, userId: string) => `${title} becomes completed for ${userId}; they claim its reward in the game as usual.`,
    done: (title: string) => `${title}: completed, claimable by the player`,
  },
} as const;

/** Reset or complete one of the player's missions, each after a dialog asking why. */
export function MissionFixCard({ target, data, titleOf, onDone }: { target: Target; data: Inspection; titleOf(id: string): string; onDone(): void }) {
  const { can } = useStaff();
  const [missionId, setMissionId] = React.useState(data.missions[0]?.mission.id ?? '');
  const [action, setAction] = React.useState<MissionAction | null>(null);
  // One key per opened dialog: a double submit or a retry after a lost answer applies it once.
  const [key, setKey] = React.useState(() => crypto.randomUUID());
  const run = useMutation({
    mutationFn: ({ act, reason }: { act: MissionAction; reason: string }) =>
      adminFetch<MissionActionResult>(userPath(target, `/missions/${encodeURIComponent(missionId)}/${act}`), { method: 'POST', body: { reason }, headers: { 'Idempotency-Key': key } }),
    onSuccess: (_r, { act }) => {
      toast.success(MISSION_ACTION[act].done(titleOf(missionId)));
      setAction(null);
      onDone();
    },
  });
  if (!can('players.adjust') || data.missions.length === 0) return null;
  const open = (act: MissionAction) => {
    run.reset();
    setKey(crypto.randomUUID());
    setAction(act);
  };
  const chosen = data.missions.find((m) => m.mission.id === missionId);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <WrenchIcon className="size-4 text-muted-foreground" aria-hidden />
          Fix a mission
        </CardTitle>
        <CardDescription>Reset a mission’s progress or complete it for a player who was wronged. Each asks for a reason; the player’s game hears of it at once.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="grid gap-2">
          <Label htmlFor="fix-mission">Mission</Label>
          <select id="fix-mission" className={inputClass} value={missionId} onChange={(e) => setMissionId(e.target.value)}>
            {data.missions.map((m) => (
              <option key={m.mission.id} value={m.mission.id}>
                {m.mission.title} ({m.progress?.status ?? 'no progress'})
              </option>
            ))}
          </select>
        </div>
        <div className="grid grid-cols-2 gap-2">
          <Button type="button" variant="outline" onClick={() => open('reset')} disabled={!chosen?.progress}>
            <RotateCcwIcon aria-hidden />
            Reset progress…
          </Button>
          <Button type="button" variant="outline" onClick={() => open('complete')} disabled={chosen?.progress?.status === 'completed' || chosen?.progress?.status === 'claimed'}>
            <CheckCircle2Icon aria-hidden />
            Complete…
          </Button>
        </div>
        <ReasonDialog
          open={action !== null}
          onOpenChange={(o) => !o && setAction(null)}
          id="mission-fix-reason"
          title={action ? MISSION_ACTION[action].title : ''}
          description={action ? MISSION_ACTION[action].describe(titleOf(missionId), target.userId, chosen?.mission.criteria.window ?? 'lifetime') : ''}
          confirmLabel={action ? MISSION_ACTION[action].confirm : ''}
          pending={run.isPending}
          error={run.error ? errorMessage(run.error) : null}
          onConfirm={(reason) => action && run.mutate({ act: action, reason })}
        />
      </CardContent>
    </Card>
  );
}

/** The player's data requests: export everything stored about them, or erase it (admins). */
export function DataRequestCard({ target, onErased }: { target: Target; onErased(): void }) {
  const { can } = useStaff();
  const [erasing, setErasing] = React.useState(false);
  const exportData = useMutation({
    mutationFn: () => adminFetch<UserExport>(userPath(target, '/export')),
    onSuccess: (doc) => {
      const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `questline-${target.appId}-${target.userId}-export.json`;
      a.click();
      URL.revokeObjectURL(url);
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const erase = useMutation({
    mutationFn: (reason: string) => adminFetch<ErasureResult>(userPath(target), { method: 'DELETE', body: { reason } }),
    onSuccess: (r) => {
      toast.success(`${r.userId} erased: ${countOf(r.removed.events, 'event')}, ${countOf(r.removed.ledger, 'ledger row')}, ${countOf(r.removed.notes, 'note')} removed`);
      setErasing(false);
      onErased();
    },
  });
  if (!can('players.data')) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldAlertIcon className="size-4 text-muted-foreground" aria-hidden />
          Data requests
        </CardTitle>
        <CardDescription>When the player asks for their data or for it to be deleted (admins only).</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-2 gap-2">
        <Button type="button" variant="outline" onClick={() => exportData.mutate()} disabled={exportData.isPending}>
          <DownloadIcon aria-hidden />
          Export data
        </Button>
        <Button
          type="button"
          variant="outline"
          className="text-destructive"
          onClick={() => {
            erase.reset();
            setErasing(true);
          }}
        >
          <Trash2Icon aria-hidden />
          Erase player…
        </Button>
        <ReasonDialog
          open={erasing}
          onOpenChange={setErasing}
          id="erase-reason"
          title={`Erase ${target.userId}?`}
          description="Removes the player’s events, progress, balances, ledger, notes and stream log in one go and revokes their tokens. It cannot be undone. The dashboard’s totals stay, and the audit log keeps that you erased them, when and why."
          confirmLabel="Erase player"
          destructive
          pending={erase.isPending}
          error={erase.error ? errorMessage(erase.error) : null}
          onConfirm={(reason) => erase.mutate(reason)}
        />
      </CardContent>
    </Card>
  );
}
