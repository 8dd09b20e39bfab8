// Server-side types of the missions domain: the stored progress record and an
// event as the engine sees it. The entities' zod schemas live in lib/contract.
export type { Campaign } from '@/lib/contract/campaign';
export type { Mission, MissionFilter, MissionWindow } from '@/lib/contract/mission';
export type { MissionProgress, ProgressStatus } from '@/lib/contract/progress';

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
}

/** An event as the engine sees it. */
export interface EngineEvent {
  userId: string;
  name: string;
  payload: Record<string, unknown>;
  timestamp: number;
}
