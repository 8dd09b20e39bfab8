// Where a campaign stands in time, as the console shows it: scheduled (not
// started yet), live or ended (archived ones are hidden from players whatever
// their dates). The console's one word for what will start is "Scheduled".
export type CampaignPhase = 'upcoming' | 'live' | 'ended' | 'archived';

export function campaignPhase(c: { startAt: number; endAt: number; archived?: boolean }, now = Date.now()): CampaignPhase {
  if (c.archived) return 'archived';
  if (now < c.startAt) return 'upcoming';
  if (now >= c.endAt) return 'ended';
  return 'live';
}

export const PHASE_LABELS: Record<CampaignPhase, string> = { upcoming: 'Scheduled', live: 'Live', ended: 'Ended', archived: 'Archived' };
export const PHASE_BADGE: Record<CampaignPhase, 'success' | 'default' | 'secondary' | 'outline'> = {
  live: 'success',
  upcoming: 'default',
  ended: 'secondary',
  archived: 'outline',
};

/** The reader's time zone, named: "Europe/Paris (UTC+01:00)". */
export function timeZoneLabel(at = Date.now()): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const offset = -new Date(at).getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return `${zone} (UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')})`;
}
