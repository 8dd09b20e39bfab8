// GENERATED from lib/contract by `npm run sdk:types` (scripts/sdk/generate-types.ts): do not edit.
// The contract's shapes as plain TypeScript: the SDK needs neither zod nor server code.

/** The HTTP status of each error code the API answers (`{ error: code, message? }`). */
export const ERROR_STATUS = {
  validation_error: 400,
  invalid_event: 400,
  invalid_credentials: 401,
  unauthorized: 401,
  invalid_signature: 401,
  user_mismatch: 403,
  forbidden: 403,
  self_approval: 403,
  not_requester: 403,
  grant_limit_exceeded: 403,
  not_found: 404,
  mission_not_found: 404,
  balance_not_found: 404,
  campaign_not_found: 404,
  user_not_found: 404,
  app_not_found: 404,
  draft_not_found: 404,
  release_not_found: 404,
  endpoint_not_found: 404,
  delivery_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  claim_not_ready: 409,
  budget_exhausted: 409,
  needs_acknowledgement: 409,
  approval_pending: 409,
  no_pending_approval: 409,
  approval_required: 409,
  release_scheduled: 409,
  balance_limit: 409,
  insufficient_balance: 409,
  payload_too_large: 413,
  idempotency_key_reused: 422,
  rate_limited: 429,
  too_many_streams: 429,
  internal_error: 500,
  unavailable: 503
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export type Reward = {
  kind: "currency";
  currency: string;
  amount: number;
  /** The display name of the currency, item or badge, when the app defines it */
  name?: string;
  /** Its icon, when its definition has one */
  iconUrl?: string;
} | {
  kind: "item";
  itemId: string;
  quantity: number;
  /** The display name of the currency, item or badge, when the app defines it */
  name?: string;
  /** Its icon, when its definition has one */
  iconUrl?: string;
} | {
  kind: "badge";
  badgeId: string;
  /** The display name of the currency, item or badge, when the app defines it */
  name?: string;
  /** Its icon, when its definition has one */
  iconUrl?: string;
};

export type Mission = {
  id: string;
  title: string;
  description: string;
  criteria: {
    eventName: string;
    count: number;
    /** Counting window: calendar buckets of the event timestamp (weeks start on Monday) in the user's `timezone` attribute, or UTC for a user without one */
    window: "lifetime" | "daily" | "weekly" | "monthly";
    /** Payload path (dot notation) → literal (equality) or operator object (eq ne gt gte lt lte in nin exists); every key must match */
    filter?: {
      [key: string]: unknown;
    };
    /** What counts toward criteria.count: count (default when absent) adds 1 per qualifying event; sum adds the payload field’s value (missing, non-numeric, non-finite or negative values add nothing; fractions count to the millionth; currentCount is the sum rounded down); distinct counts different values (string, number or boolean; 1 and "1" differ) of the field in the window (target at most 1000) */
    aggregate?: {
      op: "count";
    } | {
      op: "sum";
      /** Payload path (dot notation, as in filters) */
      field: string;
    } | {
      op: "distinct";
      /** Payload path (dot notation, as in filters) */
      field: string;
    };
    /** Daily or weekly missions only: completes when the target was met in `length` consecutive windows; a window that ends without meeting it starts the streak again */
    streak?: {
      /** Consecutive windows in which the target must be met */
      length: number;
      /** After the claim the streak starts again (true) or the mission stays claimed (false, the default) */
      repeat?: boolean;
    };
  };
  /** The first of `rewards` */
  reward: Reward;
  /** Every reward the claim grants (one or more); `reward` is the first */
  rewards: Reward[];
  campaignId: string | null;
  /** Events at or after this time do not count; null: never expires */
  expiresAt: number | null;
  iconUrl: string | null;
  /** Missions the user must have claimed first */
  prerequisites: string[];
  /** True while events cannot advance it for this user: a prerequisite is not claimed yet, or its campaign has not started */
  locked: boolean;
};

/** Campaign theme: primaryColor (and optionally accentColor, backgroundColor, textColor), CSS colours, plus any other fields the app uses */
export type Theme = {
  /** A CSS colour: #rgb, #rrggbb, #rrggbbaa, rgb()/hsl()/hwb()/lab()/lch()/oklab()/oklch() with numbers, or a named colour */
  primaryColor: string;
  /** A CSS colour: #rgb, #rrggbb, #rrggbbaa, rgb()/hsl()/hwb()/lab()/lch()/oklab()/oklch() with numbers, or a named colour */
  accentColor?: string;
  /** A CSS colour: #rgb, #rrggbb, #rrggbbaa, rgb()/hsl()/hwb()/lab()/lch()/oklab()/oklch() with numbers, or a named colour */
  backgroundColor?: string;
  /** A CSS colour: #rgb, #rrggbb, #rrggbbaa, rgb()/hsl()/hwb()/lab()/lch()/oklab()/oklch() with numbers, or a named colour */
  textColor?: string;
  [key: string]: unknown;
};

export type Campaign = {
  id: string;
  title: string;
  description: string;
  startAt: number;
  endAt: number;
  missionIds: string[];
  theme?: Theme;
  bannerUrl: string;
};

export type ProgressStatus = "active" | "completed" | "claimed" | "locked";

export type MissionProgress = {
  userId: string;
  missionId: string;
  status: ProgressStatus;
  /** currentCount / targetCount, capped at 1 */
  progress: number;
  currentCount: number;
  targetCount: number;
  updatedAt: number;
  /** Streak missions only */
  streak?: {
    /** Consecutive windows met so far, ending with the current or the previous window (0 once a window was missed) */
    current: number;
    length: number;
  };
};

export type Balance = {
  userId: string;
  currency: string;
  amount: number;
  updatedAt: number;
  /** The currency’s display name, when the app defines its currencies (GET /v1/balance) */
  name?: string;
};

export type LedgerEntry = {
  id: number;
  kind: "currency" | "item" | "badge";
  currency: string | null;
  amount: number | null;
  itemId: string | null;
  quantity: number | null;
  badgeId: string | null;
  missionId: string | null;
  balanceAfter: number | null;
  createdAt: number;
  /** Staff grants and corrections: who (staff:<email> or admin-api-key); `backend` for a spend by the game backend; null for mission rewards */
  actor: string | null;
  /** Staff grants, corrections and spends: why */
  reason: string | null;
};

export type SdkUpdate = {
  type: "mission.progress";
  data: MissionProgress;
} | {
  type: "mission.completed";
  data: MissionProgress;
} | {
  type: "reward.granted";
  data: {
    userId: string;
    missionId: string;
    reward: Reward;
  };
} | {
  type: "balance.changed";
  data: Balance;
} | {
  type: "recommendation";
  data: {
    userId: string;
    missionIds: string[];
    reason: string;
  };
};

export type ErrorBody = {
  /** The error code (see the error table) */
  error: string;
  message?: string;
  /** On rate_limited and too_many_streams: milliseconds to wait */
  retryAfterMs?: number;
  /** On grant_limit_exceeded: the limit passed (per grant or per day); on balance_limit: the currency’s maxBalance */
  limit?: number;
  /** On grant_limit_exceeded: what the staff member may still grant of the currency today (UTC) */
  remaining?: number;
};

export type TokenRequest = {
  appId: string;
  appSecret: string;
  userId: string;
  /** User attributes to merge: key (1–64 characters) → string (≤ 256 characters), number or boolean; null deletes the key. At most 32 keys, in the update and stored. `timezone` is reserved: an IANA zone name, the user's calendar for daily, weekly and monthly windows. */
  attributes?: {
    [key: string]: string | number | boolean | null;
  };
};

export type TokenResponse = {
  accessToken: string;
  tokenType: "Bearer";
  expiresIn: 3600;
  expiresAt: number;
};

export type RevokeResponse = {
  revoked: true;
};

export type EventRequest = {
  /** Must equal the token subject */
  userId: string;
  name: string;
  /** Input of the mission criteria filters */
  payload: {
    [key: string]: unknown;
  };
  /** Unix ms (not seconds) of the event, as the device saw it: at most 5 minutes ahead of the server clock and at most 24 hours old, else 400 invalid_event. A daily/weekly/monthly mission counts it only while its window is the current one by the server clock */
  timestamp: number;
  /** The Idempotency-Key header wins when both are given */
  idempotencyKey?: string;
};

export type EventResponse = {
  accepted: true;
  eventId: string;
  /** Missions whose progress this event changed */
  missionsUpdated: string[];
};

export type MissionList = {
  missions: Mission[];
  /** Mission id → the caller’s progress, for missions with a record */
  progress: {
    [key: string]: MissionProgress;
  };
  /** null on the last page */
  nextCursor: string | null;
};

export type MissionDetail = {
  mission: Mission;
  /** null before the first qualifying event */
  progress: MissionProgress | null;
};

export type ClaimResponse = {
  progress: MissionProgress;
  /** The balance of the first currency the claim granted; null when it granted none */
  balance: Balance | null;
  /** The first reward granted (the first of `rewards`) */
  reward: Reward;
  /** Every reward the claim granted, in the mission’s order */
  rewards: Reward[];
  /** The balance of each currency the claim granted, in the order of `rewards` (empty when it granted none) */
  balances: Balance[];
};

export type BalanceList = {
  balances: Balance[];
};

export type SingleBalance = {
  balance: Balance;
};

export type SpendRequest = {
  /** The player; 404 user_not_found when the app has never seen them */
  userId: string;
  /** A currency of the app (docs/api.md, "Defined currencies"); 400 otherwise */
  currency: string;
  /** How much to take (positive); 409 insufficient_balance when the balance is smaller */
  amount: number;
  /** Why (kept on the ledger row) */
  reason?: string;
  /** The Idempotency-Key again, inside the signed body: required with the webhook signature (so a captured request cannot be replayed under a new key), optional with the app secret */
  idempotencyKey?: string;
};

export type SpendResponse = {
  /** The balance after the spend */
  balance: Balance;
  /** The ledger row of the spend: a negative amount, actor `backend` */
  ledgerEntry: LedgerEntry;
};

export type CampaignList = {
  campaigns: Campaign[];
};

export type CampaignDetail = {
  campaign: Campaign;
  /** With include=missions */
  missions?: Mission[];
};

export type WebhookEvent = {
  /** The player the event is for (any user of the app) */
  userId: string;
  name: string;
  /** Input of the mission criteria filters */
  payload: {
    [key: string]: unknown;
  };
  /** Unix ms (not seconds) of the event: at most 5 minutes ahead of the server clock and at most 7 days old (a backend’s buffer), else 400 validation_error naming events[i].timestamp */
  timestamp: number;
  /** Shared with POST /v1/events: the same key and event there or here is applied once */
  idempotencyKey?: string;
};

export type WebhookDelivery = {
  /** Applied whole or not at all, in this order (after `users`); required unless `users` is given */
  events?: WebhookEvent[];
  /** Attribute updates, merged in this order before the events, in the same transaction; required unless `events` is given */
  users?: ({
    /** The player whose attributes change */
    userId: string;
    /** User attributes to merge: key (1–64 characters) → string (≤ 256 characters), number or boolean; null deletes the key. At most 32 keys, in the update and stored. `timezone` is reserved: an IANA zone name, the user's calendar for daily, weekly and monthly windows. */
    attributes: {
      [key: string]: string | number | boolean | null;
    };
  })[];
};

export type WebhookResponse = {
  accepted: true;
  /** One per event, in the order of the events */
  results: {
    eventId: string;
    /** Missions whose progress this event changed */
    missionsUpdated: string[];
  }[];
};

export type Recommendations = {
  userId: string;
  /** Best first; only missions the caller can still progress or claim */
  missionIds: string[];
  /** Why, for the player */
  reason: string;
  /** true when the deterministic ranking answered (no model configured, or the model failed) */
  fallback: boolean;
  /** Unix ms when this answer was computed (a cached answer keeps its time) */
  generatedAt: number;
};

export type Notification = {
  id: string;
  type: "mission.completed";
  appId: string;
  userId: string;
  createdAt: number;
  /** The progress as GET /v1/missions/:id shows it right after the completion */
  data: MissionProgress;
} | ({
  id: string;
  type: "reward.granted";
  appId: string;
  userId: string;
  createdAt: number;
  /** A claimed reward: currency, item or badge, for the game backend to fulfil */
  data: {
    userId: string;
    missionId: string;
    reward: Reward;
    /** The claim’s Idempotency-Key (null when the claim had none) */
    idempotencyKey: string | null;
  };
}) | {
  id: string;
  type: "balance.changed";
  appId: string;
  userId: string;
  createdAt: number;
  /** The balance after the change (a claim of a currency reward, a staff grant or correction) */
  data: Balance;
} | {
  id: string;
  type: "budget.alert";
  appId: string;
  userId: string;
  createdAt: number;
  /** A campaign’s payout reached 80 % or 100 % of its budget in a currency (once per threshold); the envelope’s userId is the player whose claim reached it */
  data: {
    campaignId: string;
    currency: string;
    /** The percentage of the budget reached: 80 or 100 */
    threshold: number;
    /** What the campaign has granted in this currency, this claim included */
    spent: number;
    /** The campaign’s budget of this currency */
    budget: number;
    /** The mission whose claim reached the threshold */
    missionId: string;
    /** When that claim committed */
    at: number;
  };
};

// Query strings (every parameter optional).

export type ListMissionsParams = {
  /** Restrict to one campaign */
  campaignId?: string;
  /** Effective status; default all */
  status?: "active" | "completed" | "claimed" | "locked" | "all";
  /** Page size */
  limit?: number;
  /** nextCursor of the previous page */
  cursor?: string;
  /** Also list missions that can no longer progress */
  include?: "expired";
};

export type BalanceParams = {
  /** One currency code */
  currency?: string;
};

export type ListCampaignsParams = {
  /** Also list ended campaigns */
  include?: "expired";
};

export type CampaignParams = {
  /** Add the campaign’s missions */
  include?: "missions";
};

export type RecommendationsParams = {
  /** How many missions at most */
  limit?: number;
};

/** Every generated shape by name (the test that ties these types to the zod schemas reads it). */
export interface ContractTypes {
  Reward: Reward;
  Mission: Mission;
  Theme: Theme;
  Campaign: Campaign;
  ProgressStatus: ProgressStatus;
  MissionProgress: MissionProgress;
  Balance: Balance;
  LedgerEntry: LedgerEntry;
  SDKUpdate: SdkUpdate;
  Error: ErrorBody;
  TokenRequest: TokenRequest;
  TokenResponse: TokenResponse;
  RevokeResponse: RevokeResponse;
  Event: EventRequest;
  EventResponse: EventResponse;
  MissionList: MissionList;
  MissionDetail: MissionDetail;
  ClaimResponse: ClaimResponse;
  BalanceList: BalanceList;
  SingleBalance: SingleBalance;
  SpendRequest: SpendRequest;
  SpendResponse: SpendResponse;
  CampaignList: CampaignList;
  CampaignDetail: CampaignDetail;
  WebhookEvent: WebhookEvent;
  WebhookDelivery: WebhookDelivery;
  WebhookResponse: WebhookResponse;
  Recommendations: Recommendations;
  Notification: Notification;
}
export interface ContractQueryTypes {
  ListMissionsParams: ListMissionsParams;
  BalanceParams: BalanceParams;
  ListCampaignsParams: ListCampaignsParams;
  CampaignParams: CampaignParams;
  RecommendationsParams: RecommendationsParams;
}
