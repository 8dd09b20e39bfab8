// Sentences for the engine's verdicts and locks (the fields come from
// lib/missions/engine.ts via the inspector API; nothing here decides anything).
// Missions and campaigns are named by their titles (the inspection's
// missions and campaigns), never by id, unless the catalog no longer has them.
import { formatDateTime } from '@/components/console/format';
import type { InspectorVerdict } from '@/lib/contract/inspector';
import { describeCondition, describeMission, formatAmount, type DescribableMission, type DescribableProgress } from '@/lib/missions/describe-mission';
import { nearestEventName } from '@/lib/missions/did-you-mean';

/** Titles by id, for missions and campaigns; an unknown id answers itself. */
export interface Titles {
  mission(id: string): string;
  campaign(id: string): string;
  /** The mission itself, when the catalog has it: progress is then said in its units ("4,200 / 10,000 gold", "day 3 of 7"). */
  missionOf?(id: string): DescribableMission | undefined;
}

type Lock = { reason: 'campaign_not_started'; campaignId: string; startAt: number; endAt: number } | { reason: 'prerequisites'; missing: string[] };

const show = (value: unknown): string => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value));

const titled = (ids: string[], titleOf: (id: string) => string) => ids.map((id) => `“${titleOf(id)}”`).join(', ');

export function describeLock(lock: Lock, titles: Titles): string {
  if (lock.reason === 'prerequisites') return `Locked: claim ${titled(lock.missing, titles.mission)} first`;
  return `Locked: its campaign “${titles.campaign(lock.campaignId)}” starts ${formatDateTime(lock.startAt)}`;
}

const isStreak = (s: unknown): s is { current: number; length: number } =>
  typeof s === 'object' && s !== null && typeof (s as { current?: unknown }).current === 'number' && typeof (s as { length?: unknown }).length === 'number';

/** Why a sum's or distinct's value added nothing ("was missing", "was -5"). */
function invalidValue(r: Record<string, unknown>): string {
  switch (r.reason) {
    case 'missing':
      return 'was missing';
    case 'negative':
      return `was ${show(r.seen)} (negative)`;
    case 'not_finite':
      return `was not a finite number${r.seen === undefined ? '' : ` (${String(r.seen)})`}`;
    case 'not_a_number':
      return `was ${show(r.seen)}, not a number`;
    default:
      return `was ${show(r.seen)}, not a string, number or boolean`;
  }
}

/**
 * A player's progress on a mission in its units, as the Missions card says it
 * (describeMission); without the mission (gone from the catalog) the bare
 * counts and streak.
 */
export function describeProgress(missionId: string, progress: DescribableProgress, titles: Titles): string {
  const mission = titles.missionOf?.(missionId);
  if (mission) return describeMission(mission, { progress }).progress;
  const streak = progress.streak ? `, streak ${progress.streak.current} of ${progress.streak.length}` : '';
  return `${formatAmount(progress.currentCount)} / ${formatAmount(progress.targetCount)}${streak}`;
}

/** Where a streak stands once this window met its target: "day 2 of 7" (its mission's words), else "streak 2 of 7". */
function metStreak(missionId: string, streak: { current: number; length: number }, titles: Titles): string {
  const mission = titles.missionOf?.(missionId);
  if (!mission) return `streak ${streak.current} of ${streak.length}`;
  const target = mission.criteria.count;
  return describeMission(mission, { progress: { currentCount: target, targetCount: target, streak } }).progress;
}

/** One sentence: counted and how far, or the first rule the event failed. */
export function describeVerdict(v: InspectorVerdict, titles: Titles): string {
  const r = v as Record<string, unknown>;
  if (v.counted) {
    // Sum, distinct and streak missions say what the event added, and the progress is in the mission's units.
    const counts = describeProgress(v.missionId, { currentCount: v.currentCount ?? 0, targetCount: v.targetCount ?? 0, ...(isStreak(r.streak) ? { streak: r.streak } : {}) }, titles);
    const what = typeof r.added === 'number' ? ` +${formatAmount(r.added)}` : r.value !== undefined ? ` new value ${show(r.value)}` : '';
    const bucket = typeof r.bucket === 'string' && typeof r.timeZone === 'string' ? `, counts for ${r.bucket} in ${r.timeZone}` : '';
    return v.change === 'completed' ? `Counted${what}: completed (${counts}${bucket})` : `Counted${what}: progress ${counts}${bucket}`;
  }
  switch (v.code) {
    case 'event_name_mismatch':
      return `Event name ${show(r.seen)} is not the mission’s ${show(r.expected)}`;
    case 'filter_mismatch':
      return `Filter “${String(r.key)}” did not match: needs ${describeCondition(r.condition)}, saw ${r.missing ? 'no such field' : show(r.seen)}`;
    case 'outside_window':
      return `Event time ${formatDateTime(Number(r.timestamp))} is outside its campaign’s window (${formatDateTime(Number(r.startAt))} – ${formatDateTime(Number(r.endAt))})`;
    case 'campaign_not_live':
      if (r.state === 'not_started') return `Campaign “${titles.campaign(String(r.campaignId))}” was not live: it starts ${formatDateTime(Number(r.startAt))}`;
      if (r.state === 'ended') return `Campaign “${titles.campaign(String(r.campaignId))}” was not live: it ended ${formatDateTime(Number(r.endAt))}`;
      return `Campaign “${titles.campaign(String(r.campaignId))}” is archived`;
    case 'locked_by_prerequisite':
      return `Locked: ${titled(r.missing as string[], titles.mission)} not claimed yet`;
    case 'expired':
      return `Mission expired ${formatDateTime(Number(r.expiresAt))}, before the event’s time`;
    case 'outside_current_window':
      return `Outside the current window: the event’s window (${formatDateTime(Number(r.eventWindowStart))}) is not the current one (${formatDateTime(Number(r.currentWindowStart))}), so it counted for nothing${typeof r.timeZone === 'string' ? ` (windows in ${r.timeZone})` : ''}`;
    case 'window_closed':
      return `The event belongs to an earlier window (${formatDateTime(Number(r.eventWindowStart))}) than the progress (${formatDateTime(Number(r.recordWindowStart))})`;
    case 'already_completed':
      return 'Already completed: waits for its claim';
    case 'already_claimed':
      return 'Already claimed in this window';
    case 'mission_archived':
      return 'Mission archived';
    case 'aggregate_value_invalid':
      return `Added nothing: field ${String(r.field)} ${invalidValue(r)}`;
    case 'distinct_repeat':
      return `Added nothing: ${String(r.field)} ${show(r.value)} was already counted in this window`;
    case 'streak_window_met':
      return `Added nothing: this window already met the target${isStreak(r.streak) ? ` (${metStreak(v.missionId, r.streak, titles)})` : ''}`;
    case 'outside_audience':
      return 'Outside the audience of the mission or its campaign: the mission does not exist for this user';
    case 'not_evaluated':
      return 'Not evaluated: the mission did not listen to this event name when it arrived';
    default:
      return 'Not counted';
  }
}

/**
 * The event-name mismatches of one event, as one line instead of a row per
 * mission. `alone`: no mission reads the event's name at all (every verdict is
 * a mismatch), so the name is most likely a slip: the nearest mission event
 * name is suggested (lib/missions/did-you-mean.ts). Null when there are none.
 */
export function describeNameMismatches(verdicts: InspectorVerdict[]): { text: string; suggestion: string | null; alone: boolean } | null {
  const mismatched = verdicts.filter((v) => !v.counted && v.code === 'event_name_mismatch');
  if (mismatched.length === 0) return null;
  const seen = String((mismatched[0] as Record<string, unknown>).seen);
  const expected = [...new Set(mismatched.map((v) => String((v as Record<string, unknown>).expected)))];
  const alone = mismatched.length === verdicts.length;
  const list = expected.map((n) => `“${n}”`).join(', ');
  const missions = mismatched.length === 1 ? '1 mission counts' : `${mismatched.length} missions count`;
  if (!alone) return { text: `${mismatched.length === 1 ? '1 other mission counts' : `${mismatched.length} other missions count`} other events (${list})`, suggestion: null, alone };
  const suggestion = nearestEventName(seen, expected);
  const text = suggestion
    ? `No mission counts “${seen}”: did you mean “${suggestion}”? (${missions} ${list})`
    : `No mission counts “${seen}” (${missions} ${list})`;
  return { text, suggestion, alone };
}

/**
 * One line for an event (the live panel): the missions it counted for, else
 * why not: the did-you-mean line when no mission reads its name, else the
 * first mission's reason and how many more did not count.
 */
export function summarizeEvent(verdicts: InspectorVerdict[] | null, titles: Titles): string {
  if (verdicts === null) return 'no verdicts stored';
  if (verdicts.length === 0) return 'counted for nothing: the app has no missions';
  const counted = verdicts.filter((v) => v.counted);
  if (counted.length > 0) return `counted for ${counted.map((v) => `“${titles.mission(v.missionId)}” (${describeVerdict(v, titles).replace(/^Counted: /, '')})`).join(', ')}`;
  const judged = verdicts.filter((v) => v.code !== 'event_name_mismatch');
  if (judged.length === 0) return `counted for nothing. ${describeNameMismatches(verdicts)!.text}`;
  const first = judged[0];
  const more = judged.length > 1 ? ` (and ${judged.length - 1} more mission${judged.length > 2 ? 's' : ''})` : '';
  return `counted for nothing. “${titles.mission(first.missionId)}”: ${describeVerdict(first, titles)}${more}`;
}
