'use client';

// Upcoming, live and ended campaigns at a glance: one bar per campaign of the
// draft's view on a shared time axis with a "now" line, coloured by its theme.
// The phase (and the counts) say what players see now, from the live
// campaign; a campaign only the draft has gets no phase, only its draft badge.
import * as React from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { campaignPhase, PHASE_BADGE, PHASE_LABELS, type CampaignPhase } from '@/components/console/campaign-phase';
import { DraftChangeBadge, type DraftChange } from '@/components/console/draft';
import { formatDate, formatDateTime } from '@/components/console/format';
import type { CampaignRecord, ThemeRecord } from '@/lib/contract/catalog-admin';
import { safeCssColor } from '@/lib/contract/css-color';

/** The campaign's colour for CSS: a CSS colour only (a stored value from before colours were checked is dropped). */
export function themeColorOf(c: CampaignRecord, themes: ThemeRecord[] | undefined): string | undefined {
  return safeCssColor(c.themeId ? themes?.find((t) => t.id === c.themeId)?.primaryColor : c.theme?.primaryColor);
}

const ORDER: CampaignPhase[] = ['live', 'upcoming', 'ended'];

/** A campaign of the draft's view with its live record (null: only in the draft). */
type TimelineCampaign = CampaignRecord & { draftChange: DraftChange; live: CampaignRecord | null };

export function CampaignTimeline({ campaigns, themes, now }: { campaigns: TimelineCampaign[]; themes: ThemeRecord[] | undefined; now: number }) {
  const shown = campaigns.filter((c) => !c.archived);
  const phaseOf = (c: TimelineCampaign) => (c.live ? campaignPhase(c.live, now) : null);
  // Sorted live, scheduled, ended, then what only the draft has.
  const rank = (c: TimelineCampaign) => {
    const phase = phaseOf(c);
    return phase && ORDER.includes(phase) ? ORDER.indexOf(phase) : ORDER.length;
  };
  const counts = Object.fromEntries(ORDER.map((p) => [p, shown.filter((c) => phaseOf(c) === p).length])) as Record<CampaignPhase, number>;
  if (shown.length === 0) return null;
  const from = Math.min(now, ...shown.map((c) => c.startAt));
  const to = Math.max(now, ...shown.map((c) => c.endAt));
  const span = Math.max(1, to - from);
  const pct = (t: number) => `${(((t - from) / span) * 100).toFixed(3)}%`;
  const nowShare = (now - from) / span;
  const sorted = [...shown].sort((a, b) => rank(a) - rank(b) || a.startAt - b.startAt);

  return (
    <Card className="mb-6">
      <CardContent className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-sm font-semibold">Timeline</h2>
          <p className="flex flex-wrap gap-3 text-sm text-muted-foreground">
            {ORDER.map((p) => (
              <span key={p}>
                <span className="font-semibold tabular-nums text-foreground">{counts[p]}</span> {PHASE_LABELS[p].toLowerCase()}
              </span>
            ))}
          </p>
        </div>
        <ol className="space-y-2" aria-label="Campaign timeline">
          {sorted.map((c) => {
            const phase = phaseOf(c);
            const moved = c.live !== null && (c.live.startAt !== c.startAt || c.live.endAt !== c.endAt);
            const color = themeColorOf(c, themes) ?? 'var(--color-primary)';
            return (
              <li key={c.id} className="grid grid-cols-[minmax(8rem,14rem)_1fr] items-center gap-3">
                <div className="flex min-w-0 items-center gap-2">
                  {phase ? <Badge variant={PHASE_BADGE[phase]}>{PHASE_LABELS[phase]}</Badge> : <DraftChangeBadge change={c.draftChange} />}
                  <span className="truncate text-sm font-medium" title={c.title}>
                    {c.title}
                  </span>
                </div>
                <div className="relative h-6 rounded-md bg-muted" title={`${formatDateTime(c.startAt)} – ${formatDateTime(c.endAt)}`}>
                  <div
                    className="absolute inset-y-1 rounded"
                    style={{ left: pct(c.startAt), width: `max(4px, calc(${pct(c.endAt)} - ${pct(c.startAt)}))`, backgroundColor: color, opacity: phase === 'ended' ? 0.45 : 1 }}
                  />
                  <div className="absolute inset-y-0 w-0.5 bg-foreground" style={{ left: pct(now) }} aria-hidden />
                  <span className="sr-only">
                    {formatDate(c.startAt)} to {formatDate(c.endAt)}
                    {moved && c.live ? ` (draft; live: ${formatDate(c.live.startAt)} to ${formatDate(c.live.endAt)})` : ''}
                  </span>
                </div>
              </li>
            );
          })}
        </ol>
        <div className="grid grid-cols-[minmax(8rem,14rem)_1fr] gap-3 text-xs text-muted-foreground" aria-hidden>
          <span />
          {/* Two lines: the "now" marker above the range's dates, so they never overlap however close now is to either end. */}
          <div className="grid gap-0.5">
            <div className="relative h-4">
              <span className={cn('absolute font-medium text-foreground', nowShare < 0.05 ? '' : nowShare > 0.95 ? '-translate-x-full' : '-translate-x-1/2')} style={{ left: pct(now) }}>
                now
              </span>
            </div>
            <div className="flex justify-between gap-3">
              <span>{formatDate(from)}</span>
              <span>{formatDate(to)}</span>
            </div>
          </div>
        </div>
      </CardContent>
    </Card>
  );
}
