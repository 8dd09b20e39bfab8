'use client';

// The mission as a player sees it in the game's mission list: icon, title,
// what it measures and the progress towards it (describeMission, as the rest
// of the console words it), when it resets, who it is for, the reward, expiry,
// and why it is locked. Drawn from the form's current values, so it follows
// every keystroke.
import * as React from 'react';
import { ClockIcon, GiftIcon, LockIcon, RotateCcwIcon, TargetIcon, UsersIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useNow } from '@/components/console/browser-store';
import { formatDateTime, formatRelative } from '@/components/console/format';
import type { Campaign } from '@/lib/contract/campaign';
import { safeCssColor } from '@/lib/contract/css-color';
import type { Reward } from '@/lib/contract/mission';
import { fromLocalInput } from '@/lib/console/local-time';
import { NO_CAMPAIGN, describableMission, type MissionFormValues } from '@/lib/console/mission-form';
import { describeMission, sentence } from '@/lib/missions/describe-mission';
import { rewardsLabel, type RewardNames } from './labels';

function previewReward(r: MissionFormValues['reward']): Reward | null {
  if (r.kind === 'currency') return r.currency && Number(r.amount) > 0 ? { kind: 'currency', currency: r.currency, amount: Number(r.amount) } : null;
  if (r.kind === 'item') return r.itemId && Number(r.quantity) > 0 ? { kind: 'item', itemId: r.itemId, quantity: Number(r.quantity) } : null;
  return r.badgeId ? { kind: 'badge', badgeId: r.badgeId } : null;
}

function safeImageUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

export function MissionPreview({ values, campaigns, missionTitles, names }: { values: MissionFormValues; campaigns: Campaign[]; missionTitles: Map<string, string>; names?: RewardNames }) {
  const described = describeMission(describableMission(values), { titles: missionTitles });
  // Every reward of the bundle that is filled in enough to show.
  const rewards = [values.reward, ...(values.extraRewards ?? [])].map(previewReward).filter((r): r is Reward => r !== null);
  const campaign = values.campaignId === NO_CAMPAIGN ? null : (campaigns.find((c) => c.id === values.campaignId) ?? null);
  const expiresAt = fromLocalInput(values.expiresAt);
  const now = useNow();
  const notStarted = campaign !== null && campaign.startAt > now;
  const locked = values.prerequisites.length > 0 || notStarted;
  const accent = safeCssColor(campaign?.theme?.primaryColor);
  const icon = values.iconUrl ? safeImageUrl(values.iconUrl) : null;
  // A new icon URL gets its own try (state adjusted while rendering, as React advises, not in an effect).
  const [broken, setBroken] = React.useState(false);
  const [triedIcon, setTriedIcon] = React.useState(icon);
  if (triedIcon !== icon) {
    setTriedIcon(icon);
    setBroken(false);
  }

  return (
    <Card aria-label="Player preview" role="region" className="overflow-hidden">
      <CardHeader className="pb-0">
        <CardTitle className="text-sm font-medium text-muted-foreground">As a player sees it</CardTitle>
      </CardHeader>
      <CardContent>
        <div className="rounded-xl border bg-background p-4 shadow-xs" style={accent ? { borderTopColor: accent, borderTopWidth: 4 } : undefined}>
          {campaign && <p className="mb-2 text-xs font-medium uppercase tracking-wide text-muted-foreground">{campaign.title}</p>}
          <div className="flex items-start gap-3">
            <div className="flex size-12 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-primary/10 text-primary">
              {icon && !broken ? (
                // A plain <img>: the URL is any host the author types, not one Next.js's optimiser knows.
                // eslint-disable-next-line @next/next/no-img-element
                <img src={icon} alt="" className="size-full object-cover" onError={() => setBroken(true)} />
              ) : (
                <TargetIcon className="size-6" aria-hidden />
              )}
            </div>
            <div className="min-w-0 flex-1 space-y-1">
              <p className="font-semibold leading-tight">{values.title || 'Untitled mission'}</p>
              {values.description && <p className="text-sm text-muted-foreground">{values.description}</p>}
            </div>
            {locked && (
              <Badge variant="secondary">
                <LockIcon aria-hidden />
                Locked
              </Badge>
            )}
          </div>
          <div className="mt-4 space-y-1.5">
            <p className="text-xs text-muted-foreground" data-testid="preview-measure">
              {values.criteria.eventName.trim() ? described.measure : 'No event chosen'}
            </p>
            <p className="text-right text-xs tabular-nums text-muted-foreground" data-testid="preview-progress">
              {described.progress}
            </p>
            <div className="h-2 rounded-full bg-muted" role="progressbar" aria-label="Progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={0} />
          </div>
          <ul className="mt-4 space-y-1.5 text-sm">
            <li className="flex items-center gap-2">
              <GiftIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              {rewards.length > 0 ? rewardsLabel(rewards, names) : <span className="text-muted-foreground">No reward yet</span>}
            </li>
            <li className="flex items-center gap-2">
              <RotateCcwIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              {described.recurrence}
            </li>
            {described.audience && (
              <li className="flex items-center gap-2">
                <UsersIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                {sentence(described.audience)}
              </li>
            )}
            {expiresAt !== null && !Number.isNaN(expiresAt) && (
              <li className="flex items-center gap-2">
                <ClockIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                {expiresAt <= now ? 'Expired' : `Ends ${formatRelative(expiresAt, now)}`} ({formatDateTime(expiresAt)})
              </li>
            )}
          </ul>
          {locked && (
            <p className="mt-3 rounded-md bg-muted px-3 py-2 text-xs text-muted-foreground">
              {notStarted && campaign ? `Opens with ${campaign.title}, ${formatRelative(campaign.startAt, now)}. ` : ''}
              {described.prerequisites && `Unlocks ${described.prerequisites} ${values.prerequisites.length === 1 ? 'is' : 'are'} claimed.`}
            </p>
          )}
        </div>
        {Object.keys(values.criteria.filterRows).length > 0 && (
          <p className="mt-3 text-xs text-muted-foreground">Only events whose payload matches every filter count; players do not see the filters.</p>
        )}
      </CardContent>
    </Card>
  );
}
