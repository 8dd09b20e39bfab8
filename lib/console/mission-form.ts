// The mission form's values and the mission they stand for. The form keeps
// what people type (filter rows, numbers and dates as text, every reward
// field); toMissionInput turns it into the API's shape, which the resolver
// then validates with the contract's own missionSchema. Field names mirror the
// mission's paths, so a schema error lands beside the field it names.
import { FILTER_OPERATORS, isFilterLiteral, isPlainObject, type FilterOperator } from '@/lib/contract/filter';
import { rewardsOf, type Mission, type MissionInput, type MissionWindow, type Reward, type RewardKind } from '@/lib/contract/mission';
import { fromLocalInput, toLocalInput } from '@/lib/console/local-time';
import { aggregateToForm, emptyAggregateForm, formToAggregate, type AggregateFormValues } from '@/lib/console/mission-aggregate-form';
import type { DescribableMission } from '@/lib/missions/describe-mission';

export interface FilterRow {
  path: string;
  op: FilterOperator;
  /** As typed: 3, ranked, "3", true, null; a list for in/nin (a, b, 3). */
  value: string;
}

export interface MissionFormValues {
  id: string;
  title: string;
  description: string;
  criteria: { eventName: string; count: string; window: MissionWindow; filterRows: FilterRow[]; aggregate: AggregateFormValues };
  /** The first reward (the whole reward of a mission of one). */
  reward: RewardFormValues;
  /** The bundle's other rewards, in order (issue 39 §2): empty for a mission of one reward. */
  extraRewards: RewardFormValues[];
  campaignId: string;
  /** A datetime-local value in the reader's time zone; empty: never expires. */
  expiresAt: string;
  iconUrl: string;
  prerequisites: string[];
  archived: boolean;
  /** The audience over user attributes (components/console/audience-field.tsx); undefined: every player. */
  audience?: Record<string, unknown>;
}

/** One reward's fields as typed (every kind's, so switching kind keeps what was typed). */
export interface RewardFormValues {
  kind: RewardKind;
  currency: string;
  amount: string;
  itemId: string;
  quantity: string;
  badgeId: string;
}

export const NO_CAMPAIGN = '__none';

/** A reward row added to the bundle: a badge to pick (the kind most bundles add to a currency). */
export const emptyReward = (): RewardFormValues => ({ kind: 'badge', currency: '', amount: '10', itemId: '', quantity: '1', badgeId: '' });

function rewardToForm(r: Reward): RewardFormValues {
  return {
    ...emptyReward(),
    kind: r.kind,
    ...(r.kind === 'currency' ? { currency: r.currency, amount: String(r.amount) } : {}),
    ...(r.kind === 'item' ? { itemId: r.itemId, quantity: String(r.quantity) } : {}),
    ...(r.kind === 'badge' ? { badgeId: r.badgeId } : {}),
  };
}

function formToReward(r: RewardFormValues) {
  return r.kind === 'currency'
    ? { kind: 'currency' as const, currency: r.currency.trim(), amount: numberOf(r.amount) }
    : r.kind === 'item'
      ? { kind: 'item' as const, itemId: r.itemId.trim(), quantity: numberOf(r.quantity) }
      : { kind: 'badge' as const, badgeId: r.badgeId.trim() };
}

export const OPERATOR_LABELS: Record<FilterOperator, string> = {
  eq: 'equals',
  ne: 'is not',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  in: 'is one of',
  nin: 'is none of',
  exists: 'exists',
};

export { FILTER_OPERATORS };

/** A literal as typed: JSON when it reads as JSON (3, true, null, "3"), else the text itself. */
export function parseLiteral(text: string): string | number | boolean | null {
  const trimmed = text.trim();
  try {
    const value: unknown = JSON.parse(trimmed);
    if (isFilterLiteral(value)) return value;
  } catch {
    // Plain text: a string.
  }
  return trimmed;
}

function formatLiteral(value: unknown): string {
  if (typeof value === 'string') {
    // A string that would read back as another type keeps its quotes.
    return typeof parseLiteral(value) === 'string' && value.trim() === value ? value : JSON.stringify(value);
  }
  return JSON.stringify(value);
}

function operand(row: FilterRow): unknown {
  if (row.op === 'in' || row.op === 'nin') {
    const text = row.value.trim();
    if (text.startsWith('[')) {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    }
    return text === '' ? [] : text.split(',').map(parseLiteral);
  }
  if (row.op === 'exists') return row.value.trim() !== 'false';
  return parseLiteral(row.value);
}

/** Rows → the filter object (a lone `equals` is a literal); undefined when there are no rows. */
export function rowsToFilter(rows: FilterRow[]): Record<string, unknown> | undefined {
  if (rows.length === 0) return undefined;
  const filter: Record<string, Record<string, unknown>> = {};
  for (const row of rows) (filter[row.path.trim()] ??= {})[row.op] = operand(row);
  return Object.fromEntries(
    Object.entries(filter).map(([path, ops]) => {
      const keys = Object.keys(ops);
      return [path, keys.length === 1 && keys[0] === 'eq' && isFilterLiteral(ops.eq) ? ops.eq : ops];
    }),
  );
}

export function filterToRows(filter: Record<string, unknown> | undefined): FilterRow[] {
  return Object.entries(filter ?? {}).flatMap(([path, condition]): FilterRow[] => {
    if (!isPlainObject(condition)) return [{ path, op: 'eq', value: formatLiteral(condition) }];
    return Object.entries(condition).map(([op, value]) => ({
      path,
      op: op as FilterOperator,
      value: Array.isArray(value) ? value.map(formatLiteral).join(', ') : op === 'exists' ? String(value) : formatLiteral(value),
    }));
  });
}

/** Rows naming the same path and operator twice (the later would silently win): their indexes. */
export function duplicateRows(rows: FilterRow[]): number[] {
  const seen = new Set<string>();
  return rows.flatMap((row, i) => {
    const key = `${row.path.trim()}\u0000${row.op}`;
    if (seen.has(key)) return [i];
    seen.add(key);
    return [];
  });
}

/** A number field as typed; text that is not a number stays text, so the schema names the field. */
function numberOf(text: string): number | string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const n = Number(trimmed);
  return Number.isNaN(n) ? trimmed : n;
}

export function emptyMissionForm(): MissionFormValues {
  return {
    id: '',
    title: '',
    description: '',
    criteria: { eventName: '', count: '1', window: 'lifetime', filterRows: [], aggregate: emptyAggregateForm() },
    reward: { kind: 'currency', currency: '', amount: '10', itemId: '', quantity: '1', badgeId: '' },
    extraRewards: [],
    campaignId: NO_CAMPAIGN,
    expiresAt: '',
    iconUrl: '',
    prerequisites: [],
    archived: false,
  };
}

export function toFormValues(m: Mission): MissionFormValues {
  const [first, ...others] = rewardsOf(m);
  return {
    id: m.id,
    title: m.title,
    description: m.description,
    criteria: {
      eventName: m.criteria.eventName,
      count: String(m.criteria.count),
      window: m.criteria.window,
      filterRows: filterToRows(m.criteria.filter),
      aggregate: aggregateToForm(m.criteria),
    },
    reward: rewardToForm(first),
    extraRewards: others.map(rewardToForm),
    campaignId: m.campaignId ?? NO_CAMPAIGN,
    expiresAt: toLocalInput(m.expiresAt),
    iconUrl: m.iconUrl ?? '',
    prerequisites: m.prerequisites,
    archived: m.archived,
    audience: m.audience,
  };
}

/** What the form stands for, before validation (the schema names any field at fault). */
export function toMissionInput(v: MissionFormValues): MissionInput {
  const reward = formToReward(v.reward);
  const extras = (v.extraRewards ?? []).map(formToReward);
  const filter = rowsToFilter(v.criteria.filterRows);
  return {
    id: v.id.trim(),
    title: v.title.trim(),
    description: v.description.trim(),
    criteria: {
      eventName: v.criteria.eventName.trim(),
      count: numberOf(v.criteria.count),
      window: v.criteria.window,
      ...(filter ? { filter } : {}),
      ...formToAggregate(v.criteria.aggregate ?? emptyAggregateForm()),
    },
    reward,
    // A bundle: `rewards` holds them all, `reward` its first (the schema's errors on rewards.N land on extraRewards.N-1).
    ...(extras.length > 0 ? { rewards: [reward, ...extras] } : {}),
    campaignId: v.campaignId === NO_CAMPAIGN ? null : v.campaignId,
    expiresAt: fromLocalInput(v.expiresAt),
    iconUrl: v.iconUrl.trim() === '' ? null : v.iconUrl.trim(),
    prerequisites: v.prerequisites,
    archived: v.archived,
    ...(v.audience ? { audience: v.audience } : {}),
  } as MissionInput;
}

/**
 * The form as describeMission reads it (the preview, the labels), while it is
 * typed: a count that is not a whole number ≥ 1 yet reads as 1, a streak
 * length that is not a number leaves the streak out, a blank field or event
 * name reads as "…".
 */
export function describableMission(v: MissionFormValues): DescribableMission {
  const a = v.criteria.aggregate ?? emptyAggregateForm();
  const length = Math.floor(Number(a.length));
  const filter = rowsToFilter(v.criteria.filterRows);
  return {
    criteria: {
      eventName: v.criteria.eventName.trim() || '…',
      count: Math.max(1, Math.floor(Number(v.criteria.count)) || 1),
      window: v.criteria.window,
      ...(filter ? { filter } : {}),
      ...(a.op === 'count' ? {} : { aggregate: { op: a.op, field: a.field.trim() || '…' } }),
      ...(a.streak && length >= 1 ? { streak: { length, repeat: a.repeat } } : {}),
    },
    ...(v.audience ? { audience: v.audience } : {}),
    prerequisites: v.prerequisites,
  };
}
