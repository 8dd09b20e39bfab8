// Server-side types of the missions domain: the stored progress record (defined
// in lib/progress/record.ts) and an event as the engine sees it. The entities' zod schemas live in lib/contract.
import type { AggregateState } from '@/lib/contract/mission-aggregate';
export type { AggregateState };
export type { Campaign } from '@/lib/contract/campaign';
export type { Mission, MissionFilter, MissionWindow } from '@/lib/contract/mission';
export type { MissionProgress, ProgressStatus } from '@/lib/contract/progress';
export type { ProgressRecord } from '@/lib/progress/record';

/**
 * Issue 19's running state of one record (progress.state, jsonb):
 * - sumMicros: the window's running sum in millionths (exact integers), capped at the target;
 * - values: the distinct values seen in the window, at most the target (≤ 1000);
 * - streak: windows met in a row (`current`) and the start of the last one met (`lastMet`).
 */

/** An event as the engine sees it. */
export interface EngineEvent {
  userId: string;
  name: string;
  payload: Record<string, unknown>;
  timestamp: number;
}
