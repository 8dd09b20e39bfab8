// Sentences for the engine's verdicts and locks (the fields come from
// lib/missions/engine.ts via the inspector API; nothing here decides anything).
import { formatDateTime } from '@/components/console/format';
import type { InspectorVerdict } from '@/lib/contract/inspector';

type Lock = { reason: 'campaign_not_started'; campaignId: string; startAt: number; endAt: number } | { reason: 'prerequisites'; missing: string[] };

const show = (value: unknown): string => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value));

function condition(c: unknown): string {
  if (c === null || typeof c !== 'object' || Array.isArray(c)) return `= ${show(c)}`;
  const ops: Record<string, string> = { eq: '=', ne: '≠', gt: '>', gte: '≥', lt: '<', lte: '≤', in: 'in', nin: 'not in' };
  return Object.entries(c as Record<string, unknown>)
    .map(([op, operand]) => (op === 'exists' ? (operand ? 'present' : 'absent') : `${ops[op] ?? op} ${show(operand)}`))
    .join(' and ');
}

const titled = (ids: string[], titleOf: (id: string) => string) => ids.map((id) => `“${titleOf(id)}”`).join(', ');

export function describeLock(lock: Lock, titleOf: (id: string) => string): string {
  if (lock.reason === 'prerequisites') return `Locked: claim ${titled(lock.missing, titleOf)} first`;
  return `Locked: its campaign ${lock.campaignId} starts ${formatDateTime(lock.startAt)}`;
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

/** One sentence: counted and how far, or the first rule the event failed. */
export function describeVerdict(v: InspectorVerdict, titleOf: (id: string) => string): string {
  const r = v as Record<string, unknown>;
  if (v.counted) {
    const counts = `${v.currentCount}/${v.targetCount}`;
    // Sum, distinct and streak missions say what the event added and where the streak stands.
    const what = typeof r.added === 'number' ? ` +${r.added}` : r.value !== undefined ? ` new value ${show(r.value)}` : '';
    const streak = isStreak(r.streak) ? `, streak ${r.streak.current}/${r.streak.length}` : '';
    return v.change === 'completed' ? `Counted${what}: completed (${counts}${streak})` : `Counted${what}: progress ${counts}${streak}`;
  }
  switch (v.code) {
    case 'event_name_mismatch':
      return `Event name ${show(r.seen)} is not the mission’s ${show(r.expected)}`;
    case 'filter_mismatch':
      return `Filter “${String(r.key)}” did not match: needs ${condition(r.condition)}, saw ${r.missing ? 'no such field' : show(r.seen)}`;
    case 'outside_window':
      return `Event time ${formatDateTime(Number(r.timestamp))} is outside its campaign’s window (${formatDateTime(Number(r.startAt))} – ${formatDateTime(Number(r.endAt))})`;
    case 'campaign_not_live':
      if (r.state === 'not_started') return `Campaign ${String(r.campaignId)} was not live: it starts ${formatDateTime(Number(r.startAt))}`;
      if (r.state === 'ended') return `Campaign ${String(r.campaignId)} was not live: it ended ${formatDateTime(Number(r.endAt))}`;
      return `Campaign ${String(r.campaignId)} is archived`;
    case 'locked_by_prerequisite':
      return `Locked: ${titled(r.missing as string[], titleOf)} not claimed yet`;
    case 'expired':
      return `Mission expired ${formatDateTime(Number(r.expiresAt))}, before the event’s time`;
    case 'outside_current_window':
      return `Outside the current window: the event’s window (${formatDateTime(Number(r.eventWindowStart))}) is not the current one (${formatDateTime(Number(r.currentWindowStart))}), so it counted for nothing`;
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
      return `Added nothing: this window already met the target${isStreak(r.streak) ? ` (streak ${r.streak.current}/${r.streak.length})` : ''}`;
    case 'not_evaluated':
      return 'Not evaluated: the mission did not listen to this event name when it arrived';
    default:
      return 'Not counted';
  }
}
