// The mission form's aggregate and streak builder (issue 19): what people pick
// (op, field, streak on/off, length as text, repeat) and the criteria parts
// they stand for. Kept apart from mission-form.ts; the contract's
// missionSchema validates the result (field paths, length 2–365, daily or
// weekly only, distinct target ≤ 1000).
import type { Mission } from '@/lib/contract/mission';

type AggregateOp = 'count' | 'sum' | 'distinct';

export interface AggregateFormValues {
  op: AggregateOp;
  field: string;
  streak: boolean;
  /** As typed. */
  length: string;
  repeat: boolean;
}

export function emptyAggregateForm(): AggregateFormValues {
  return { op: 'count', field: '', streak: false, length: '7', repeat: false };
}

export function aggregateToForm(criteria: Mission['criteria']): AggregateFormValues {
  const a = criteria.aggregate;
  const s = criteria.streak;
  return {
    op: a?.op ?? 'count',
    field: a && a.op !== 'count' ? a.field : '',
    streak: s !== undefined,
    length: s ? String(s.length) : '7',
    repeat: s?.repeat ?? false,
  };
}

/** The criteria's `aggregate` and `streak` (absent for a plain count without streak, as the API stores it). */
export function formToAggregate(v: AggregateFormValues): { aggregate?: unknown; streak?: unknown } {
  const out: { aggregate?: unknown; streak?: unknown } = {};
  if (v.op !== 'count') out.aggregate = { op: v.op, field: v.field.trim() };
  if (v.streak) {
    const trimmed = v.length.trim();
    const n = Number(trimmed);
    out.streak = { length: trimmed === '' || Number.isNaN(n) ? trimmed : n, ...(v.repeat ? { repeat: true } : {}) };
  }
  return out;
}
