// A mission in words, by what it measures: "Collect 10,000 gold (sum of gold
// on gold_earned)", "login on 7 days in a row", "3 different modes", who it
// is for, what it waits for, and a player's progress ("4,200 / 10,000 gold",
// "day 3 of 7"). THE one description: the console's tables, the Inspector,
// the player previews and the verdict sentences all read it. Pure and
// imports only types, so client components and server code may both use it.
import type { MissionWindow } from '@/lib/contract/mission';

/** What the description reads of a mission: a stored Mission, a /v1 PublicMission or the editor's values all fit. */
export interface DescribableMission {
  criteria: {
    eventName: string;
    count: number;
    window?: MissionWindow;
    filter?: Record<string, unknown>;
    aggregate?: { op: 'count' } | { op: 'sum' | 'distinct'; field: string };
    streak?: { length: number; repeat?: boolean };
  };
  audience?: Record<string, unknown>;
  prerequisites?: readonly string[];
}

/** A player's progress as /v1, the stream, the Inspector and verdicts carry it (absent: none yet). */
export interface DescribableProgress {
  currentCount: number;
  targetCount: number;
  streak?: { current: number; length: number };
}

export interface MissionDescription {
  /** What completes it: "5 match_won events", "Collect 10,000 gold (sum of gold on gold_earned)", "login on 7 days in a row". */
  measure: string;
  /** The window as a word: "daily", "weekly", "monthly"; "daily streak" / "weekly streak"; null for lifetime. */
  window: string | null;
  /** When it starts again, for a player: "Resets every Monday at 00:00 in the player’s time zone (UTC when they have none)". */
  recurrence: string;
  /** Which events count: `only events where mode = "ranked"`; null without a filter. */
  filter: string | null;
  /** Who it exists for: `only players with platform = "ios"`; null: everyone. */
  audience: string | null;
  /** What it waits for: "after ‘Play 5 matches’ is claimed"; null: nothing. */
  prerequisites: string | null;
  /** Progress in the mission's units: "3 / 5", "4,200 / 10,000 gold", "2 / 3 modes", "day 3 of 7". */
  progress: string;
  /** The share done, 0 to 1, of what `progress` says (a streak: days met of its length). */
  ratio: number;
  /** measure · window · audience · prerequisites, the one-line form. */
  summary: string;
}

export interface DescribeOptions {
  /** The player's progress (null or absent: none yet, read as zero). */
  progress?: DescribableProgress | null;
  /** Titles of the app's missions by id, for prerequisites (an unknown id reads as itself). */
  titles?: ReadonlyMap<string, string> | ((id: string) => string);
  /** The player's IANA zone when known (the Inspector); absent: said generically. */
  timeZone?: string;
}

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
/** Numbers as the console writes them, the same on every machine: 10,000. */
export const formatAmount = (n: number): string => numberFormat.format(n);

const show = (value: unknown): string => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value));

const OPERATOR_WORDS: Record<string, string> = { eq: '=', ne: '≠', gt: '>', gte: '≥', lt: '<', lte: '≤', in: 'in', nin: 'not in' };

/** One filter condition in words: `= "ranked"`, `≥ 3 and < 10`, `present`. */
export function describeCondition(condition: unknown): string {
  if (condition === null || typeof condition !== 'object' || Array.isArray(condition)) return `= ${show(condition)}`;
  return Object.entries(condition as Record<string, unknown>)
    .map(([op, operand]) => (op === 'exists' ? (operand ? 'present' : 'absent') : `${OPERATOR_WORDS[op] ?? op} ${show(operand)}`))
    .join(' and ');
}

/** A whole filter: `mode = "ranked" and level ≥ 3`. */
function describeFilter(filter: Record<string, unknown>): string {
  return Object.entries(filter)
    .map(([path, condition]) => `${path} ${describeCondition(condition)}`)
    .join(' and ');
}

/** Field names that say how much, not of what: a sum of them has no unit to name ("Collect a total of 1,000"). */
const UNITLESS = new Set(['amount', 'value', 'total', 'count', 'quantity', 'qty', 'sum', 'number', 'n']);

/** The unit a field's values are in: its last path segment (`reward.gold` → gold); '' for a unitless name (`amount`). */
function unitOf(field: string): string {
  const last = field.split('.').pop() || field;
  return UNITLESS.has(last.toLowerCase()) ? '' : last;
}

function plural(word: string, n: number): string {
  if (n === 1) return word;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

type Period = { noun: 'day' | 'week'; adverb: string };
const PERIOD: Partial<Record<MissionWindow, Period>> = { daily: { noun: 'day', adverb: 'a day' }, weekly: { noun: 'week', adverb: 'a week' } };

/** The target of one window in words (no streak): "5 match_won events", "Collect 10,000 gold (…)", "3 different modes (…)". */
function target(criteria: DescribableMission['criteria'], per: string): string {
  const { eventName, count, aggregate } = criteria;
  const n = formatAmount(count);
  const each = per ? ` ${per}` : '';
  if (aggregate?.op === 'sum') {
    const unit = unitOf(aggregate.field);
    return `Collect ${unit ? `${n} ${unit}` : `a total of ${n}`}${each} (sum of ${aggregate.field} on ${eventName})`;
  }
  if (aggregate?.op === 'distinct') return `${n} different ${plural(aggregate.field.split('.').pop() || aggregate.field, count)}${each} (distinct ${aggregate.field} on ${eventName})`;
  return `${n} ${eventName} ${plural('event', count)}${each}`;
}

function measureOf(criteria: DescribableMission['criteria']): string {
  const streak = criteria.streak;
  const period = PERIOD[criteria.window ?? 'lifetime'];
  if (streak === undefined || period === undefined) return target(criteria, '');
  const run = `${formatAmount(streak.length)} ${plural(period.noun, streak.length)} in a row`;
  // One plain event a window reads best as the event on N days in a row.
  if ((criteria.aggregate === undefined || criteria.aggregate.op === 'count') && criteria.count === 1) return `${criteria.eventName} on ${run}`;
  return `${target(criteria, period.adverb)}, ${run}`;
}

const RESETS: Record<Exclude<MissionWindow, 'lifetime'>, string> = { daily: 'every day', weekly: 'every Monday', monthly: 'on the 1st of every month' };

function recurrenceOf(criteria: DescribableMission['criteria'], timeZone: string | undefined): string {
  const window = criteria.window ?? 'lifetime';
  if (window === 'lifetime') return 'Counts once, forever';
  const zone = timeZone ? `(${timeZone})` : 'in the player’s time zone (UTC when they have none)';
  const streak = criteria.streak;
  const period = PERIOD[window];
  if (streak !== undefined && period !== undefined) {
    const again = streak.repeat ? '; after the claim it starts again' : '';
    return `A ${period.noun} runs to 00:00 ${zone}; a ${period.noun} that ends without meeting the target starts the streak again${again}`;
  }
  return `Resets ${RESETS[window]} at 00:00 ${zone}`;
}

function titleFn(titles: DescribeOptions['titles']): (id: string) => string {
  if (titles === undefined) return (id) => id;
  if (typeof titles === 'function') return titles;
  return (id) => titles.get(id) ?? id;
}

function progressOf(criteria: DescribableMission['criteria'], p: DescribableProgress | null | undefined): { text: string; ratio: number } {
  const ratio = (a: number, b: number) => (b > 0 ? Math.min(1, Math.max(0, a / b)) : 0);
  const current = p?.currentCount ?? 0;
  const goal = p?.targetCount ?? criteria.count;
  const period = PERIOD[criteria.window ?? 'lifetime'];
  if (criteria.streak !== undefined && period !== undefined) {
    const length = p?.streak?.length ?? criteria.streak.length;
    const met = p?.streak?.current ?? 0;
    // The window's own progress matters only when a window needs more than one event (or a sum, or distinct values).
    const within = goal > 1 && current < goal ? ` (${formatAmount(current)} / ${formatAmount(goal)} ${period.noun === 'day' ? 'today' : 'this week'})` : '';
    return { text: `${period.noun} ${formatAmount(met)} of ${formatAmount(length)}${within}`, ratio: ratio(met, length) };
  }
  const a = criteria.aggregate;
  const unit = a?.op === 'sum' ? unitOf(a.field) : a?.op === 'distinct' ? plural(a.field.split('.').pop() || a.field, goal) : '';
  return { text: `${formatAmount(current)} / ${formatAmount(goal)}${unit ? ` ${unit}` : ''}`, ratio: ratio(current, goal) };
}

/** The mission in words (see MissionDescription), with the player's progress when given. */
export function describeMission(mission: DescribableMission, options: DescribeOptions = {}): MissionDescription {
  const { criteria } = mission;
  const windowName = criteria.window ?? 'lifetime';
  const measure = measureOf(criteria);
  const streaked = criteria.streak !== undefined && PERIOD[windowName] !== undefined;
  const window = windowName === 'lifetime' ? null : streaked ? `${windowName} streak` : windowName;
  const filter = criteria.filter && Object.keys(criteria.filter).length > 0 ? `only events where ${describeFilter(criteria.filter)}` : null;
  const audience = mission.audience && Object.keys(mission.audience).length > 0 ? `only players with ${describeFilter(mission.audience)}` : null;
  const title = titleFn(options.titles);
  const prerequisites = mission.prerequisites && mission.prerequisites.length > 0 ? `after ${mission.prerequisites.map((id) => `‘${title(id)}’`).join(' and ')}` : null;
  const progress = progressOf(criteria, options.progress);
  return {
    measure,
    window,
    recurrence: recurrenceOf(criteria, options.timeZone),
    filter,
    audience,
    prerequisites,
    progress: progress.text,
    ratio: progress.ratio,
    summary: [measure, window, audience, prerequisites].filter((part): part is string => part !== null).join(' · '),
  };
}

/** A fragment as a line of its own: "only players with …" → "Only players with …". */
export const sentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The label of criteria.count in the mission form, in the measure's words: Count, Total, Different values (with a streak: "… a day"). */
export function targetLabel(criteria: { aggregate?: { op: string }; window?: MissionWindow; streak?: unknown }): string {
  const op = criteria.aggregate?.op;
  const label = op === 'sum' ? 'Total' : op === 'distinct' ? 'Different values' : 'Count';
  const period = criteria.streak ? PERIOD[criteria.window ?? 'lifetime'] : undefined;
  return period ? `${label} ${period.adverb}` : label;
}

/** The label of criteria.streak.length in the mission form: Days in a row, Weeks in a row (Windows in a row until the window is daily or weekly). */
export function streakLengthLabel(window: MissionWindow | undefined): string {
  const period = PERIOD[window ?? 'lifetime'];
  return period ? `${sentence(period.noun)}s in a row` : 'Windows in a row';
}
