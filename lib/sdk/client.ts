// The Questline client SDK: typed methods for every /v1 endpoint and a live
// update subscription. Web-standard only (fetch, TextDecoder, AbortController,
// setTimeout): runs in browsers and Node 20+. It imports nothing outside
// lib/sdk; the contract's types are generated into contract-types.ts.
import { createCore, replayOf, tokenSubject, type CoreOptions } from './http';
import { subscribe, type SubscribeOptions, type Subscription, type UpdateMeta } from './subscription';
import type {
  BalanceList,
  CampaignDetail,
  CampaignList,
  CampaignParams,
  ClaimResponse,
  ClaimResult,
  EventInput,
  EventResponse,
  FetchLike,
  ListCampaignsParams,
  ListMissionsParams,
  Mission,
  MissionDetail,
  MissionList,
  MissionProgress,
  Recommendations,
  RecommendationsParams,
  RevokeResponse,
  SdkUpdate,
  SendEventResult,
  SingleBalance,
  TokenRequest,
  TokenResponse,
  TokenSource,
} from './types';

export interface QuestlineClientOptions {
  /** Origin of the service, e.g. https://api.example.com (no /v1). */
  baseUrl: string;
  /** A fixed access token. */
  token?: string;
  /** Answers the current access token; called before each request and stream connection (wins over `token`). */
  getToken?: TokenSource;
  /** A fetch implementation (default: the global fetch). */
  fetch?: FetchLike;
}

export interface QuestlineClient {
  /**
   * POST /v1/auth/token: exchanges an app secret for a user's access token.
   * BACKEND ONLY: the app secret must never be shipped to a browser or game
   * client. Needs no token on the client.
   */
  issueToken(input: TokenRequest): Promise<TokenResponse>;
  /** POST /v1/auth/revoke: revokes the client's current token. */
  revokeToken(): Promise<RevokeResponse>;
  /**
   * POST /v1/events. `userId` defaults to the token's subject. The result carries `replay`.
   * Retry with the same `idempotencyKey` (after a NetworkError, a 503): without a `timestamp`
   * of its own the retry sends the one the key's first call stamped, so it replays.
   */
  sendEvent(event: EventInput, options?: { idempotencyKey?: string }): Promise<SendEventResult>;
  /** GET /v1/missions: one page (follow `nextCursor`, or use listAllMissions). */
  listMissions(params?: ListMissionsParams): Promise<MissionList>;
  /** Every page of GET /v1/missions, merged. */
  listAllMissions(params?: Omit<ListMissionsParams, 'cursor' | 'limit'>): Promise<{ missions: Mission[]; progress: Record<string, MissionProgress> }>;
  /** GET /v1/missions/:id. */
  getMission(id: string): Promise<MissionDetail>;
  /** POST /v1/missions/:id/claim. The result carries `replay`. */
  claimMission(id: string, options?: { idempotencyKey?: string }): Promise<ClaimResult>;
  /** GET /v1/balance: every currency of the user. */
  getBalances(): Promise<BalanceList>;
  /** GET /v1/balance?currency=CODE; BalanceNotFoundError when the user has none. */
  getBalance(currency: string): Promise<SingleBalance>;
  /** GET /v1/campaigns (`include: 'expired'` lists ended ones too). */
  listCampaigns(params?: ListCampaignsParams): Promise<CampaignList>;
  /** GET /v1/campaigns/:id (`include: 'missions'` adds the mission rows). */
  getCampaign(id: string, params?: CampaignParams): Promise<CampaignDetail>;
  /** GET /v1/recommendations (`limit` 1..10, default 3). Never fails for an AI failure: `fallback` is true then. */
  recommendations(params?: RecommendationsParams): Promise<Recommendations>;
  /** GET /v1/sse/updates as a self-healing subscription (see docs/sdk.md). */
  subscribe(onUpdate: (update: SdkUpdate, meta: UpdateMeta) => void, options?: SubscribeOptions): Subscription;
}

const seg = (id: string) => encodeURIComponent(id);

/**
 * How many idempotency keys a client remembers the first timestamp of. The
 * server takes a key's retry as a replay only when the request is the same,
 * timestamp included, so a retry of `sendEvent` without its own `timestamp`
 * must send the one the first attempt stamped.
 */
const REMEMBERED_KEYS = 1000;

export function createQuestlineClient(options: QuestlineClientOptions): QuestlineClient {
  const core = createCore(options satisfies CoreOptions);
  // (user, key) → the timestamp the key's first sendEvent stamped; oldest forgotten first.
  const stamped = new Map<string, number>();
  const stampFor = (userId: string, key: string): number => {
    const entry = `${userId}\u0000${key}`;
    const first = stamped.get(entry);
    if (first !== undefined) return first;
    const now = Date.now();
    stamped.set(entry, now);
    if (stamped.size > REMEMBERED_KEYS) stamped.delete(stamped.keys().next().value!);
    return now;
  };

  const client: QuestlineClient = {
    async issueToken(input) {
      return (await core.call<TokenResponse>('/v1/auth/token', { method: 'POST', body: input, auth: false })).data;
    },
    async revokeToken() {
      return (await core.call<RevokeResponse>('/v1/auth/revoke', { method: 'POST' })).data;
    },
    async sendEvent(event, opts = {}) {
      const userId = event.userId ?? tokenSubject(await core.token()) ?? '';
      const timestamp = event.timestamp ?? (opts.idempotencyKey ? stampFor(userId, opts.idempotencyKey) : Date.now());
      const body = { userId, name: event.name, payload: event.payload ?? {}, timestamp };
      const headers: Record<string, string> = opts.idempotencyKey ? { 'Idempotency-Key': opts.idempotencyKey } : {};
      const { data, response } = await core.call<EventResponse>('/v1/events', { method: 'POST', body, headers });
      return { ...data, replay: replayOf(response) };
    },
    async listMissions(params = {}) {
      return (await core.call<MissionList>('/v1/missions', { query: { ...params } })).data;
    },
    async listAllMissions(params = {}) {
      const missions: Mission[] = [];
      const progress: Record<string, MissionProgress> = {};
      let cursor: string | undefined;
      do {
        const page = await client.listMissions({ ...params, limit: 100, cursor });
        missions.push(...page.missions);
        Object.assign(progress, page.progress);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return { missions, progress };
    },
    async getMission(id) {
      return (await core.call<MissionDetail>(`/v1/missions/${seg(id)}`)).data;
    },
    async claimMission(id, opts = {}) {
      const headers: Record<string, string> = opts.idempotencyKey ? { 'Idempotency-Key': opts.idempotencyKey } : {};
      const { data, response } = await core.call<ClaimResponse>(`/v1/missions/${seg(id)}/claim`, { method: 'POST', headers });
      return { ...data, replay: replayOf(response) };
    },
    async getBalances() {
      return (await core.call<BalanceList>('/v1/balance')).data;
    },
    async getBalance(currency) {
      return (await core.call<SingleBalance>('/v1/balance', { query: { currency } })).data;
    },
    async listCampaigns(params = {}) {
      return (await core.call<CampaignList>('/v1/campaigns', { query: { ...params } })).data;
    },
    async getCampaign(id, params = {}) {
      return (await core.call<CampaignDetail>(`/v1/campaigns/${seg(id)}`, { query: { ...params } })).data;
    },
    async recommendations(params = {}) {
      return (await core.call<Recommendations>('/v1/recommendations', { query: { ...params } })).data;
    },
    subscribe(onUpdate, subscribeOptions) {
      return subscribe(core, onUpdate, subscribeOptions);
    },
  };
  return client;
}

