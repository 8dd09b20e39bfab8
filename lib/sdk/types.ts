// Public types of the SDK. The contract's shapes come from contract-types.ts,
// generated from the service's zod schemas (lib/contract), so the SDK carries
// no import of server code or zod, type-only included.
import type { EventResponse, ClaimResponse, SdkUpdate } from './contract-types';

export type {
  Balance,
  BalanceList,
  Campaign,
  CampaignDetail,
  CampaignList,
  CampaignParams,
  ClaimResponse,
  ErrorBody,
  ErrorCode,
  EventRequest,
  EventResponse,
  ListCampaignsParams,
  ListMissionsParams,
  Mission,
  MissionDetail,
  MissionList,
  MissionProgress,
  ProgressStatus,
  Recommendations,
  RecommendationsParams,
  RevokeResponse,
  Reward,
  SdkUpdate,
  SingleBalance,
  Theme,
  TokenRequest,
  TokenResponse,
  WebhookDelivery,
  WebhookEvent,
  WebhookResponse,
} from './contract-types';

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

/** A token, or a function that answers the current one (called before each request and stream connection). */
export type TokenSource = () => string | Promise<string>;
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
