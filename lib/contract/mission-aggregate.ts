// Issue 19 §1–2: what a mission measures (criteria.aggregate: count, sum or
// distinct of a payload field) and streaks (criteria.streak: the target met
// in N consecutive daily or weekly windows). Both are optional and additive:
// a mission without them counts events exactly as before. The engine
// (lib/missions/engine.ts) applies them; the rules are in docs/api.md
// ("Aggregates and streaks").
import { z } from 'zod';

/** Most distinct values a record keeps: the target of a distinct mission is at most this. */
const DISTINCT_TARGET_MAX = 1000;
/** Sums count payload values to this many decimal places (exact integer arithmetic in millionths). */
export const SUM_DECIMALS = 6;
const STREAK_LENGTH = { min: 2, max: 365 } as const;

const fieldSchema = z
  .string()
  .min(1)
  .max(200)
  .refine((path) => path.split('.').every((segment) => segment !== ''), { message: 'field must be dot-separated non-empty segments' })
  .describe('Payload path (dot notation, as in filters)');

export const aggregateSchema = z
  .discriminatedUnion('op', [
    z.object({ op: z.literal('count') }).strict(),
    z.object({ op: z.literal('sum'), field: fieldSchema }).strict(),
    z.object({ op: z.literal('distinct'), field: fieldSchema }).strict(),
  ])
  .describe(
    'What counts toward criteria.count: count (default when absent) adds 1 per qualifying event; sum adds the payload field’s value (missing, non-numeric, non-finite or negative values add nothing; fractions count to the millionth; currentCount is the sum rounded down); distinct counts different values (string, number or boolean; 1 and "1" differ) of the field in the window (target at most 1000)',
  )
  .meta({ examples: [{ op: 'sum', field: 'gold' }] });
type MissionAggregate = z.output<typeof aggregateSchema>;

export const streakSchema = z
  .object({
    length: z.number().int().min(STREAK_LENGTH.min).max(STREAK_LENGTH.max).describe('Consecutive windows in which the target must be met'),
    repeat: z.boolean().optional().describe('After the claim the streak starts again (true) or the mission stays claimed (false, the default)'),
  })
  .strict()
  .describe('Daily or weekly missions only: completes when the target was met in `length` consecutive windows; a window that ends without meeting it starts the streak again')
  .meta({ examples: [{ length: 7 }] });
type MissionStreak = z.output<typeof streakSchema>;

/** MissionProgress.streak (streak missions only): windows met in a row so far, and the length to reach. */
export const streakProgressSchema = z
  .object({
    current: z.number().int().nonnegative().describe('Consecutive windows met so far, ending with the current or the previous window (0 once a window was missed)'),
    length: z.number().int().positive(),
  })
  .describe('Streak missions only: consecutive windows met so far and the length to reach');

interface CriteriaForCheck {
  count: number;
  window: string;
  aggregate?: MissionAggregate;
  streak?: MissionStreak;
}

/** Cross-field rules of aggregate and streak (criteria superRefine): the issue paths and messages. */
export function aggregateCriteriaIssues(criteria: CriteriaForCheck): Array<{ path: string[]; message: string }> {
  const issues: Array<{ path: string[]; message: string }> = [];
  if (criteria.aggregate?.op === 'distinct' && criteria.count > DISTINCT_TARGET_MAX) {
    issues.push({ path: ['count'], message: `a distinct mission's count is at most ${DISTINCT_TARGET_MAX}` });
  }
  if (criteria.streak !== undefined && criteria.window !== 'daily' && criteria.window !== 'weekly') {
    issues.push({ path: ['streak'], message: 'a streak needs a daily or weekly window' });
  }
  return issues;
}

/** What a progress record keeps for an aggregate or a streak (the progress.state column): a sum's exact running sum in millionths, a distinct mission's values in the window, a streak's length and the last window that met the target; and the zone its window was bucketed in. */
export interface AggregateState {
  sumMicros?: number;
  values?: Array<string | number | boolean>;
  streak?: { current: number; lastMet: number };
  /** The IANA zone the record's daily, weekly or monthly window was bucketed in, when not UTC (lib/missions/engine.ts, currentWindow): a zone change never moves a window already begun. */
  zone?: string;
  /**
   * The window's first instant when a zone change began it inside its bucket (at the end of the
   * window before it, in another zone): an event earlier than this is not in it, however late it
   * arrives (lib/missions/engine.ts, currentWindow).
   */
  from?: number;
}
