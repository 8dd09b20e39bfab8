// The stored progress record: what the progress table keeps per (app, user,
// mission). Defined beside the store, below the engine (lib/missions re-exports
// it from lib/missions/schema.ts), so lib/progress imports nothing of
// lib/missions, which reads progress (read-missions.ts).
import type { AggregateState } from '@/lib/contract/mission-aggregate';

/** What the database keeps per (app, user, mission); never `locked`. */
export interface ProgressRecord {
  userId: string;
  missionId: string;
  status: 'active' | 'completed' | 'claimed';
  currentCount: number;
  targetCount: number;
  /** Start (Unix ms, UTC) of the window bucket the count belongs to; 0 for lifetime. */
  windowStart: number;
  /** Number of the cycle (starts at 1; a recurring mission claimed and restarted moves to the next). */
  cycle: number;
  updatedAt: number;
  /** What a sum, distinct or streak mission keeps beside the count (the progress row's `state`); absent for plain count missions. */
  state?: AggregateState;
}
