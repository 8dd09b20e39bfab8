'use client';

// A campaign card as a game might draw it from /v1: banner, title, dates, its
// missions with a progress bar and a claim button, in the campaign's theme.
// Used by the Themes screen (live preview of a preset: a sample mission) and
// the Campaigns form (the campaign's own missions, by title, from the form's
// picked missions, the same after a reload as before it).
import * as React from 'react';
import { ImageOffIcon } from 'lucide-react';
import { cn } from '@/lib/cn';
import { safeCssColor } from '@/lib/contract/css-color';
import { describeMission, type DescribableMission } from '@/lib/missions/describe-mission';
import { formatDate } from './format';

/** A mission of the previewed campaign: its title, its criteria (its target in its units: describeMission) and what it pays. */
export interface PreviewMission {
  id: string;
  title: string;
  criteria: DescribableMission['criteria'];
  reward: { kind: 'currency'; currency: string; amount: number } | { kind: 'item'; itemId: string; quantity: number } | { kind: 'badge'; badgeId: string };
  /** A bundle's rewards (reward is the first); absent for a mission of one. */
  rewards?: Array<PreviewMission['reward']>;
}

function rewardText(reward: PreviewMission['reward']): string {
  if (reward.kind === 'currency') return `${reward.amount} ${reward.currency}`;
  if (reward.kind === 'item') return `${reward.quantity} × ${reward.itemId}`;
  return `badge ${reward.badgeId}`;
}

/** At most this many missions on the card; the rest are counted. */
const CARD_MISSIONS = 3;

export interface PreviewTheme {
  primaryColor?: string;
  accentColor?: string;
  backgroundColor?: string;
  textColor?: string;
}

/** Black or white, whichever reads better on `background` (a #rrggbb or #rgb colour). */
function readableOn(background: string | undefined): string {
  const hex = background?.replace('#', '') ?? '';
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  if (!/^[0-9a-f]{6}$/i.test(full)) return '#ffffff';
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // Contrast against black vs against white.
  return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) ? '#000000' : '#ffffff';
}

function BannerImage({ url, color }: { url: string; color: string }) {
  // A new URL gets its own try (state adjusted while rendering, as React advises, not in an effect).
  const [failed, setFailed] = React.useState(false);
  const [triedUrl, setTriedUrl] = React.useState(url);
  if (triedUrl !== url) {
    setTriedUrl(url);
    setFailed(false);
  }
  if (!url) return <div className="h-24" style={{ backgroundImage: `linear-gradient(135deg, ${color}, color-mix(in srgb, ${color} 53%, transparent))` }} aria-hidden />;
  if (failed) {
    return (
      <div className="flex h-24 items-center justify-center gap-2 bg-muted text-xs text-muted-foreground">
        <ImageOffIcon className="size-4" aria-hidden />
        The banner image did not load
      </div>
    );
  }
  // A plain <img>: the URL is any host the author types, not one Next.js's optimiser knows.
  // eslint-disable-next-line @next/next/no-img-element
  return <img src={url} alt="" className="h-24 w-full object-cover" onError={() => setFailed(true)} />;
}

export function CampaignCardPreview({
  title,
  description,
  bannerUrl = '',
  theme,
  startAt,
  endAt,
  missions,
  className,
}: {
  title: string;
  description?: string;
  bannerUrl?: string;
  theme: PreviewTheme | undefined;
  startAt?: number;
  endAt?: number;
  /** The campaign's missions; absent: a sample mission (a preset's preview). */
  missions?: PreviewMission[];
  className?: string;
}) {
  // Only CSS colours reach the styles: a value stored before colours were checked (free text such as
  // `red),url(…)`) would otherwise put a URL into the banner's gradient, fetched when the preview opens.
  const primary = safeCssColor(theme?.primaryColor, '#7c3aed');
  const accent = safeCssColor(theme?.accentColor, primary);
  const background = safeCssColor(theme?.backgroundColor);
  const text = safeCssColor(theme?.textColor) ?? (background ? readableOn(background) : undefined);
  const dates = startAt !== undefined && endAt !== undefined && Number.isFinite(startAt) && Number.isFinite(endAt) ? `${formatDate(startAt)} – ${formatDate(endAt)}` : null;
  return (
    <figure className={cn('m-0 w-full max-w-sm', className)}>
      <div
        data-testid="campaign-card-preview"
        className={cn('overflow-hidden rounded-2xl border shadow-sm', !background && 'bg-card text-card-foreground')}
        style={background ? { backgroundColor: background, color: text } : text ? { color: text } : undefined}
      >
        <BannerImage url={bannerUrl} color={primary} />
        <div className="space-y-3 p-4">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <p className="truncate text-base font-semibold">{title || 'Campaign title'}</p>
              {dates && <p className="text-xs">{dates}</p>}
            </div>
            <span className="shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold" style={{ backgroundColor: accent, color: readableOn(accent) }}>
              Limited time
            </span>
          </div>
          {description ? <p className="line-clamp-2 text-sm">{description}</p> : null}
          {missions === undefined ? (
            <>
              <div className="space-y-1.5">
                <div className="flex justify-between text-xs font-medium">
                  <span>Win 3 matches</span>
                  <span>2 / 3</span>
                </div>
                <div className="h-2 overflow-hidden rounded-full bg-black/10 dark:bg-white/15" role="presentation">
                  <div className="h-full w-2/3 rounded-full" style={{ backgroundColor: primary }} />
                </div>
              </div>
              <div className="rounded-lg px-3 py-2 text-center text-sm font-semibold" style={{ backgroundColor: primary, color: readableOn(primary) }}>
                Claim 50 gems
              </div>
            </>
          ) : missions.length === 0 ? (
            <p className="text-xs opacity-80">No mission in this campaign yet: pick its missions in the form.</p>
          ) : (
            <>
              <ul aria-label="Missions on the card" className="space-y-2.5">
                {missions.slice(0, CARD_MISSIONS).map((m) => (
                  <li key={m.id} className="space-y-1.5">
                    <div className="flex justify-between gap-2 text-xs font-medium">
                      <span className="truncate">{m.title}</span>
                      <span className="shrink-0 tabular-nums">{describeMission(m).progress}</span>
                    </div>
                    <div className="h-2 overflow-hidden rounded-full bg-black/10 dark:bg-white/15" role="presentation" />
                  </li>
                ))}
              </ul>
              {missions.length > CARD_MISSIONS && <p className="text-xs opacity-80">and {missions.length - CARD_MISSIONS} more</p>}
              <div className="rounded-lg px-3 py-2 text-center text-sm font-semibold" style={{ backgroundColor: primary, color: readableOn(primary) }}>
                Claim {(missions[0].rewards ?? [missions[0].reward]).map(rewardText).join(' + ')}
              </div>
            </>
          )}
        </div>
      </div>
      <figcaption className="mt-2 text-xs text-muted-foreground">Preview: how a game might draw this campaign from /v1.</figcaption>
    </figure>
  );
}
