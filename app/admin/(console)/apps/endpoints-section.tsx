'use client';

// "Endpoints" on the Apps screen: an app's outbound-webhook endpoints
// (docs/webhooks.md), with create (the signing secret shown once), delete,
// each endpoint's delivery log (newest first) and a Redeliver button per
// delivery. Validation is the API's own schema (lib/contract/outbound.ts).
import * as React from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RotateCcwIcon, Trash2Icon } from 'lucide-react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, inputClass } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { adminFetch, errorMessage } from '@/components/console/api';
import { formatDateTime, formatRelative } from '@/components/console/format';
import type { ShownSecret } from '@/components/console/secret-dialog';
import { createEndpointSchema, NOTIFICATION_TYPES, type Delivery, type Endpoint, type NotificationType } from '@/lib/contract/outbound';
import type { PublicApp } from '@/lib/contract/app';

const keys = {
  endpoints: (appId: string) => ['admin', 'apps', appId, 'endpoints'] as const,
  deliveries: (appId: string, endpointId: string) => ['admin', 'apps', appId, 'endpoints', endpointId, 'deliveries'] as const,
};
const base = (appId: string) => `/api/admin/apps/${encodeURIComponent(appId)}/endpoints`;

const STATUS_VARIANT = { delivered: 'success', pending: 'warning', failed: 'destructive' } as const;

function DeliveryLog({ appId, endpoint }: { appId: string; endpoint: Endpoint }) {
  const queryClient = useQueryClient();
  const { data, isLoading, error } = useQuery({
    queryKey: keys.deliveries(appId, endpoint.id),
    queryFn: () => adminFetch<{ deliveries: Delivery[] }>(`${base(appId)}/${encodeURIComponent(endpoint.id)}/deliveries`),
    refetchInterval: 5_000,
  });
  const redeliver = useMutation({
    mutationFn: (id: string) => adminFetch(`${base(appId)}/${encodeURIComponent(endpoint.id)}/deliveries/${encodeURIComponent(id)}/redeliver`, { method: 'POST' }),
    onSuccess: () => {
      toast.success('Queued: it is sent again now, under the same id');
      void queryClient.invalidateQueries({ queryKey: keys.deliveries(appId, endpoint.id) });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  if (error) return <p role="alert" className="text-sm text-destructive">Could not load the deliveries: {errorMessage(error)}</p>;
  if (isLoading) return <p className="text-sm text-muted-foreground">Loading deliveries…</p>;
  const rows = data?.deliveries ?? [];
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">No delivery yet.</p>;
  return (
    <div className="overflow-x-auto rounded-md border">
      <table className="w-full text-sm">
        <caption className="sr-only">Deliveries to {endpoint.url}, newest first</caption>
        <thead className="bg-muted/50 text-left text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">Delivery</th>
            <th scope="col" className="px-3 py-2 font-medium">Type</th>
            <th scope="col" className="px-3 py-2 font-medium">Status</th>
            <th scope="col" className="px-3 py-2 font-medium">Attempts</th>
            <th scope="col" className="px-3 py-2 font-medium">Last answer</th>
            <th scope="col" className="px-3 py-2 font-medium">Next attempt</th>
            <th scope="col" className="px-3 py-2 font-medium"><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {rows.map((d) => (
            <tr key={d.id} className="border-t">
              <td className="px-3 py-2">
                <code className="font-mono text-xs">{d.id}</code>
                <div className="text-xs text-muted-foreground">
                  {d.userId} · <time dateTime={new Date(d.createdAt).toISOString()} title={formatDateTime(d.createdAt)}>{formatRelative(d.createdAt)}</time>
                </div>
              </td>
              <td className="px-3 py-2 font-mono text-xs">{d.type}</td>
              <td className="px-3 py-2">
                <Badge variant={STATUS_VARIANT[d.status]}>{d.status}</Badge>
              </td>
              <td className="px-3 py-2 tabular-nums">{d.attempts}</td>
              <td className="px-3 py-2 text-xs">{d.lastStatusCode ?? '—'}{d.lastError ? <span className="block text-muted-foreground">{d.lastError}</span> : null}</td>
              <td className="px-3 py-2 text-xs text-muted-foreground">{d.nextAttemptAt === null ? '—' : formatDateTime(d.nextAttemptAt)}</td>
              <td className="px-3 py-2 text-right">
                <Button size="sm" variant="outline" disabled={redeliver.isPending} onClick={() => redeliver.mutate(d.id)} aria-label={`Redeliver ${d.id}`}>
                  <RotateCcwIcon aria-hidden /> Redeliver
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CreateEndpointForm({ appId, onCreated }: { appId: string; onCreated(secret: ShownSecret, url: string): void }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = React.useState('');
  const [events, setEvents] = React.useState<NotificationType[]>(['reward.granted']);
  const [error, setError] = React.useState<string | undefined>(undefined);
  const create = useMutation({
    mutationFn: (body: { url: string; events: NotificationType[] }) => adminFetch<Endpoint & { secret: string }>(base(appId), { method: 'POST', body }),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: keys.endpoints(appId) });
      setUrl('');
      onCreated({ label: 'Signing secret', value: created.secret, hint: 'Verify each notification with verifyWebhook(secret, headers, rawBody) from @questline/sdk/backend.' }, created.url);
    },
    onError: (err) => setError(errorMessage(err)),
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = createEndpointSchema.safeParse({ url: url.trim(), events });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setError(issue ? `${issue.path.join('.') || 'endpoint'}: ${issue.message}` : 'Check the URL and the types');
      return;
    }
    create.mutate(parsed.data);
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 rounded-md border p-4" aria-label="New endpoint">
      <div className="grid gap-2">
        <Label htmlFor="endpoint-url">Endpoint URL</Label>
        <Input id="endpoint-url" type="url" placeholder="https://game.example.com/questline/notifications" value={url} aria-invalid={error !== undefined} onChange={(e) => { setUrl(e.target.value); setError(undefined); }} />
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Notifications</legend>
        <div className="flex flex-wrap gap-4">
          {NOTIFICATION_TYPES.map((type) => (
            <label key={type} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={events.includes(type)}
                onChange={(e) => {
                  setEvents((list) => (e.target.checked ? [...list, type] : list.filter((t) => t !== type)));
                  setError(undefined);
                }}
              />
              <code className="font-mono text-xs">{type}</code>
            </label>
          ))}
        </div>
      </fieldset>
      {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
      <div>
        <Button type="submit" disabled={create.isPending}>Add endpoint</Button>
      </div>
    </form>
  );
}

export function EndpointsSection({ apps, onSecret }: { apps: PublicApp[]; onSecret(shown: { title: string; description: string; secrets: ShownSecret[] }): void }) {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = React.useState<string | null>(null);
  const appId = chosen ?? apps[0]?.id ?? null;
  const [open, setOpen] = React.useState<string | null>(null);
  const [deleting, setDeleting] = React.useState<Endpoint | null>(null);
  const { data, error } = useQuery({
    queryKey: keys.endpoints(appId ?? ''),
    queryFn: () => adminFetch<{ endpoints: Endpoint[] }>(base(appId!)),
    enabled: appId !== null,
  });
  const remove = useMutation({
    mutationFn: (endpoint: Endpoint) => adminFetch(`${base(appId!)}/${encodeURIComponent(endpoint.id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      toast.success('Endpoint deleted: it receives nothing more');
      void queryClient.invalidateQueries({ queryKey: keys.endpoints(appId!) });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  if (appId === null) return null;
  const endpoints = data?.endpoints ?? [];
  return (
    <Card className="mt-8" role="region" aria-labelledby="endpoints-title">
      <CardHeader>
        <CardTitle id="endpoints-title">Endpoints</CardTitle>
        <CardDescription>
          Outbound webhooks: the game backend receives signed notifications (mission.completed, reward.granted, balance.changed, budget.alert) and fulfils rewards. Retried for 24 hours until it answers 2xx.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid max-w-xs gap-2">
          <Label htmlFor="endpoints-app">App</Label>
          <select id="endpoints-app" className={inputClass} value={appId} onChange={(e) => setChosen(e.target.value)}>
            {apps.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.id})
              </option>
            ))}
          </select>
        </div>
        {error ? (
          <p role="alert" className="text-sm text-destructive">Could not load the endpoints: {errorMessage(error)}</p>
        ) : endpoints.length === 0 ? (
          <p className="text-sm text-muted-foreground">No endpoint yet: add one below.</p>
        ) : (
          <ul className="grid gap-3" aria-label="Endpoints">
            {endpoints.map((endpoint) => (
              <li key={endpoint.id} className="grid gap-3 rounded-md border p-4">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="break-all font-mono text-sm">{endpoint.url}</p>
                    <p className="mt-1 flex flex-wrap gap-1.5">
                      {endpoint.events.map((t) => (
                        <Badge key={t} variant="secondary">{t}</Badge>
                      ))}
                    </p>
                    <p className="mt-1 text-xs text-muted-foreground">
                      {endpoint.id} · added {formatDateTime(endpoint.createdAt)}
                    </p>
                  </div>
                  <div className="flex gap-2">
                    <Button variant="outline" size="sm" aria-expanded={open === endpoint.id} onClick={() => setOpen(open === endpoint.id ? null : endpoint.id)}>
                      {open === endpoint.id ? 'Hide deliveries' : 'Deliveries'}
                    </Button>
                    <Button variant="outline" size="sm" onClick={() => setDeleting(endpoint)} aria-label={`Delete endpoint ${endpoint.url}`}>
                      <Trash2Icon aria-hidden /> Delete
                    </Button>
                  </div>
                </div>
                {open === endpoint.id && <DeliveryLog appId={appId} endpoint={endpoint} />}
              </li>
            ))}
          </ul>
        )}
        <CreateEndpointForm
          key={appId}
          appId={appId}
          onCreated={(secret, url) => onSecret({ title: 'Endpoint added', description: `Notifications go to ${url}, signed with this secret.`, secrets: [secret] })}
        />
      </CardContent>
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete this endpoint?"
        description={`${deleting?.url ?? ''} receives nothing more; its pending deliveries are marked failed. Its delivery log stays readable through the API.`}
        confirmLabel="Delete endpoint"
        onConfirm={() => {
          if (deleting) remove.mutate(deleting);
          setDeleting(null);
        }}
      />
    </Card>
  );
}
