// Public types of the SDK, derived from the server's zod schemas with type-only
// imports: nothing of the server reaches a client bundle at runtime.
import type { z } from 'zod';
import type { revokeResponseSchema, tokenRequestSchema, tokenResponseSchema } from '@/lib/http/v1/auth';
import type { eventResponseSchema, eventSchema } from '@/lib/http/v1/events';
import type { claimResponseSchema, missionDetailSchema, missionListSchema, publicMissionSchema } from '@/lib/http/v1/missions';
import type { balanceListSchema, singleBalanceSchema } from '@/lib/http/v1/balance';
import type { campaignDetailSchema, campaignListSchema, publicCampaignSchema } from '@/lib/http/v1/campaigns';
import type { recommendationsSchema } from '@/lib/http/v1/recommendations';
import type { SdkUpdate } from '@/lib/updates/schema';

export type { MissionProgress, ProgressStatus, Reward } from '@/lib/missions/schema';
export type { Balance } from '@/lib/balances/schema';
export type { SdkUpdate } from '@/lib/updates/schema';

export type TokenRequest = z.infer<typeof tokenRequestSchema>;
export type TokenResponse = z.infer<typeof tokenResponseSchema>;
export type RevokeResponse = z.infer<typeof revokeResponseSchema>;
export type EventRequest = z.input<typeof eventSchema>;
export type EventResponse = z.infer<typeof eventResponseSchema>;
export type Mission = z.infer<typeof publicMissionSchema>;
export type MissionList = z.infer<typeof missionListSchema>;
export type MissionDetail = z.infer<typeof missionDetailSchema>;
export type ClaimResponse = z.infer<typeof claimResponseSchema>;
export type BalanceList = z.infer<typeof balanceListSchema>;
export type SingleBalance = z.infer<typeof singleBalanceSchema>;
export type Campaign = z.infer<typeof publicCampaignSchema>;
export type CampaignList = z.infer<typeof campaignListSchema>;
export type CampaignDetail = z.infer<typeof campaignDetailSchema>;
/** GET /v1/recommendations: `fallback` is true when the deterministic ranking answered (no model, or it failed). */
export type Recommendations = z.infer<typeof recommendationsSchema>;
/** The stream message pushed when a user's recommendations are computed afresh. */
export type RecommendationUpdate = Extract<SdkUpdate, { type: 'recommendation' }>;

/** Value of the X-Idempotent-Replay response header: `hit` (response cache), `db-hit` (duplicate write detected), null (first execution). */
export type Replay = 'hit' | 'db-hit' | null;

/** sendEvent result: the response body plus `replay`. */
export type SendEventResult = EventResponse & { replay: Replay };
/** claimMission result: the response body plus `replay`. */
export type ClaimResult = ClaimResponse & { replay: Replay };

/** An event to send; `userId` defaults to the token's `sub`, `payload` to {}, `timestamp` to Date.now(). */
export interface EventInput {
  name: string;
  payload?: Record<string, unknown>;
  timestamp?: number;
  userId?: string;
}

export interface ListMissionsParams {
  campaignId?: string;
  status?: 'active' | 'completed' | 'claimed' | 'locked' | 'all';
  /** 1..100, default 50 on the server. */
  limit?: number;
  cursor?: string;
  include?: 'expired';
}

/** A token, or a function that answers the current one (called before each request and stream connection). */
export type TokenSource = () => string | Promise<string>;
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
