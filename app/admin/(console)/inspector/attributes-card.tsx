'use client';
// The player's attributes (set by the game backend: token request, webhook
// `users`) and the zone their daily, weekly and monthly windows use; the
// missions outside their audience are named, as they do not exist for them.
import { GlobeIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { Inspection } from '@/lib/contract/inspector';

export function AttributesCard({ data }: { data: Inspection }) {
  const entries = Object.entries(data.attributes);
  const hidden = data.missions.filter((m) => !m.inAudience);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <GlobeIcon className="size-4 text-muted-foreground" aria-hidden />
          Attributes and calendar
        </CardTitle>
        <CardDescription data-testid="player-zone">
          Windows (daily, weekly, monthly) use {data.timeZone === 'UTC' ? 'UTC (no timezone attribute)' : data.timeZone}.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">No attributes: the game backend sets them with the token request or the webhook.</p>
        ) : (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" aria-label="Attributes">
            {entries.map(([key, value]) => (
              <div key={key} className="contents">
                <dt className="font-mono text-muted-foreground">{key}</dt>
                <dd className="font-mono break-all" data-testid={`attribute-${key}`}>
                  {JSON.stringify(value)}
                </dd>
              </div>
            ))}
          </dl>
        )}
        {hidden.length > 0 && (
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="text-muted-foreground">Outside the audience of:</span>
            {hidden.map((m) => (
              <Badge key={m.mission.id} variant="outline">
                {m.mission.title}
              </Badge>
            ))}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
