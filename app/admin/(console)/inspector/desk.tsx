'use client';

// The Inspector's support-desk parts: player suggestions as the User ID is
// typed, the app's recent players, a plain "never seen" notice, a currency
// grant or correction with its reason, and notes. Each write goes through the
// admin API, which audits it under the signed-in member's name.
import * as React from 'react';
import Link from 'next/link';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CoinsIcon, NotebookPenIcon, UserRoundSearchIcon, UserXIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { adminFetch, errorMessage } from '@/components/console/api';
import { formatDateTime, formatRelative } from '@/components/console/format';
import { useStaff } from '@/components/console/staff-context';
import type { Note, UserPage } from '@/lib/contract/desk';

type Target = { appId: string; userId: string };

const usersPath = (appId: string, query: string, limit: number) =>
  `/api/admin/apps/${encodeURIComponent(appId)}/users?limit=${limit}${query ? `&query=${encodeURIComponent(query)}` : ''}`;
const userPath = (t: Target) => `/api/admin/apps/${encodeURIComponent(t.appId)}/users/${encodeURIComponent(t.userId)}`;

/** The text after it stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = React.useState(value);
  React.useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** A <datalist> of the app's players whose id starts with what is typed (most recently seen first). */
export function PlayerSuggestions({ id, appId, typed }: { id: string; appId: string; typed: string }) {
  const query = useDebounced(typed.trim(), 150);
  const { data } = useQuery({
    queryKey: ['admin', 'users', appId, query],
    queryFn: () => adminFetch<UserPage>(usersPath(appId, query, 8)),
    enabled: Boolean(appId),
    staleTime: 5_000,
  });
  return (
    <datalist id={id}>
      {data?.users.map((u) => (
        <option key={u.userId} value={u.userId}>
          {`seen ${formatRelative(u.lastSeenAt)} · ${u.events} events`}
        </option>
      ))}
    </datalist>
  );
}

/** The app's most recently seen players, as links to inspect them. */
export function RecentPlayers({ appId }: { appId: string }) {
  const { data, isLoading, error } = useQuery({
    queryKey: ['admin', 'users', appId, ''],
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
        <CardDescription>The players of <code>{appId}</code> seen most recently. Type the start of an id above to find others.</CardDescription>
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
                  seen {formatRelative(u.lastSeenAt)} · {u.events} events · first {formatDateTime(u.firstSeenAt)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** Says plainly when the app has never stored an event of this user id (a typo, or another app). */
export function NeverSeenNotice({ target }: { target: Target }) {
  const { data } = useQuery({
    queryKey: ['admin', 'users', target.appId, target.userId, 'exact'],
    queryFn: () => adminFetch<UserPage>(usersPath(target.appId, target.userId, 1)),
  });
  if (!data || data.users[0]?.userId === target.userId) return null;
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

/** Grant (positive) or correct (negative) a currency, with the reason the ledger and audit keep. */
export function GrantCard({ target, currencies, onDone }: { target: Target; currencies: string[]; onDone(): void }) {
  const { can } = useStaff();
  const [currency, setCurrency] = React.useState(currencies[0] ?? '');
  const [amount, setAmount] = React.useState('');
  const [reason, setReason] = React.useState('');
  // One key per intended grant: a double submit or a retry after a lost answer applies it once.
  const [key, setKey] = React.useState(() => crypto.randomUUID());
  const grant = useMutation({
    mutationFn: (body: { currency: string; amount: number; reason: string }) =>
      adminFetch<{ balance: { amount: number } }>(`${userPath(target)}/grants`, { method: 'POST', body, headers: { 'Idempotency-Key': key } }),
    onSuccess: (r, body) => {
      toast.success(`${body.amount > 0 ? 'Granted' : 'Corrected'} ${Math.abs(body.amount)} ${body.currency}: balance now ${r.balance.amount}`);
      setAmount('');
      setReason('');
      setKey(crypto.randomUUID());
      onDone();
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  if (!can('players.adjust')) return null;
  const n = Number(amount);
  const valid = currency.trim() !== '' && Number.isInteger(n) && n !== 0 && reason.trim().length >= 3;
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
            if (valid) grant.mutate({ currency: currency.trim(), amount: n, reason: reason.trim() });
          }}
        >
          <div className="grid grid-cols-2 gap-3">
            <div className="grid gap-2">
              <Label htmlFor="grant-currency">Currency</Label>
              <Input id="grant-currency" value={currency} onChange={(e) => setCurrency(e.target.value)} list="grant-currencies" placeholder="gold" required autoComplete="off" />
              <datalist id="grant-currencies">
                {currencies.map((c) => (
                  <option key={c} value={c} />
                ))}
              </datalist>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="grant-amount">Amount</Label>
              <Input id="grant-amount" type="number" step={1} value={amount} onChange={(e) => setAmount(e.target.value)} placeholder="50 or -20" required />
            </div>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="grant-reason">Reason</Label>
            <Input id="grant-reason" value={reason} onChange={(e) => setReason(e.target.value)} placeholder="Ticket #4411: ranked win not counted" required minLength={3} maxLength={500} />
          </div>
          <Button type="submit" variant="outline" disabled={grant.isPending || !valid}>
            <CoinsIcon aria-hidden />
            {n < 0 ? 'Correct balance' : 'Grant'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

/** Support notes on the player, newest first, and a form to add one. */
export function NotesCard({ target }: { target: Target }) {
  const { can } = useStaff();
  const queryClient = useQueryClient();
  const queryKey = ['admin', 'notes', target.appId, target.userId];
  const { data } = useQuery({ queryKey, queryFn: () => adminFetch<{ notes: Note[] }>(`${userPath(target)}/notes`) });
  const [text, setText] = React.useState('');
  const add = useMutation({
    mutationFn: (body: { text: string }) => adminFetch(`${userPath(target)}/notes`, { method: 'POST', body }),
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
        <CardDescription>For staff only: the player never sees them.</CardDescription>
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
