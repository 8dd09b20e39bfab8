// Examples of the public API's requests and answers, as the OpenAPI document
// shows them (lib/http/v1/openapi.ts). They are real shapes: the document's
// test validates each against its schema, and both linters check them too.
/** The moment every example is set at (the admin examples share it). */
export const EXAMPLE_AT = 1_764_158_400_000; // 2025-11-26T12:00:00Z
const AT = EXAMPLE_AT;
const USER = 'player-42';

const progress = { userId: USER, missionId: 'win-3-matches', status: 'completed', progress: 1, currentCount: 3, targetCount: 3, updatedAt: AT };
/** The example mission's definition, as both documents show it (the public one adds `locked`, the admin one `archived`). */
export const exampleMissionBase = {
  id: 'win-3-matches',
  title: 'Win 3 ranked matches',
  description: 'Any ranked mode counts.',
  criteria: { eventName: 'match_won', count: 3, window: 'daily', filter: { mode: 'ranked' } },
  reward: { kind: 'currency', currency: 'gems', amount: 50 },
  // A bundle (issue 39 §2): `reward` is its first.
  rewards: [
    { kind: 'currency', currency: 'gems', amount: 50 },
    { kind: 'badge', badgeId: 'winter-champion' },
  ],
  campaignId: 'winter-festival',
  expiresAt: null,
  iconUrl: null,
  prerequisites: [],
};
const mission = { ...exampleMissionBase, locked: false };
/** Issue 19: a sum over 5 days in a row (criteria.aggregate, criteria.streak) and its progress with the streak. */
const goldStreakMission = {
  ...mission,
  id: 'gold-5-days',
  title: 'Collect 1,000 gold a day, 5 days in a row',
  description: 'Gold from any source counts.',
  criteria: { eventName: 'gold_earned', count: 1000, window: 'daily', aggregate: { op: 'sum', field: 'amount' }, streak: { length: 5 } },
  campaignId: null,
};
const goldStreakProgress = { userId: USER, missionId: 'gold-5-days', status: 'active', progress: 0.4125, currentCount: 412, targetCount: 1000, updatedAt: AT, streak: { current: 2, length: 5 } };
const campaign = {
  id: 'winter-festival',
  title: 'Winter festival',
  description: 'Two weeks of snow-themed missions.',
  startAt: AT,
  endAt: AT + 14 * 86_400_000,
  missionIds: ['win-3-matches'],
  theme: { primaryColor: '#1e66f5' },
  bannerUrl: 'https://cdn.example.com/winter.png',
};
const balance = { userId: USER, currency: 'gems', amount: 150, updatedAt: AT };

export const v1Examples = {
  tokenRequest: {
    appId: 'demo',
    appSecret: 'qs_iEZM2N4cd0n3zUeaqUHurzkdppSluv03oi__S_bxd08',
    userId: USER,
    attributes: { platform: 'ios', level: 12, timezone: 'Europe/Berlin', trial: null },
  },
  tokenResponse: {
    accessToken: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGF5ZXItNDIiLCJhcHAiOiJkZW1vIiwianRpIjoiMDFKREUifQ.c2lnbmF0dXJl',
    tokenType: 'Bearer',
    expiresIn: 3600,
    expiresAt: AT + 3_600_000,
  },
  revokeResponse: { revoked: true },
  event: { userId: USER, name: 'match_won', payload: { mode: 'ranked', kills: 7 }, timestamp: AT, idempotencyKey: 'match-8812-won' },
  eventResponse: { accepted: true, eventId: 'evt_6f1c2d8e-3b4a-4c5d-9e8f-0a1b2c3d4e5f', missionsUpdated: ['win-3-matches'] },
  missionList: { missions: [mission, goldStreakMission], progress: { 'win-3-matches': progress, 'gold-5-days': goldStreakProgress }, nextCursor: null },
  missionDetail: { mission, progress },
  claimResponse: {
    progress: { ...progress, status: 'claimed' },
    balance,
    reward: { kind: 'currency', currency: 'gems', amount: 50 },
    rewards: [
      { kind: 'currency', currency: 'gems', amount: 50 },
      { kind: 'badge', badgeId: 'winter-champion' },
    ],
    balances: [balance],
  },
  balanceList: { balances: [balance] },
  spendRequest: { userId: USER, currency: 'gems', amount: 30, reason: 'shop: skin-ember', idempotencyKey: 'order-5521' },
  spendResponse: {
    balance: { ...balance, amount: 120 },
    ledgerEntry: { id: 42, kind: 'currency', currency: 'gems', amount: -30, itemId: null, quantity: null, badgeId: null, missionId: null, balanceAfter: 120, createdAt: AT, actor: 'backend', reason: 'shop: skin-ember' },
  },
  campaignList: { campaigns: [campaign] },
  campaignDetail: { campaign, missions: [mission] },
  webhookDelivery: {
    users: [{ userId: USER, attributes: { level: 13, vip: true } }],
    events: [
      { userId: USER, name: 'match_won', payload: { mode: 'ranked' }, timestamp: AT, idempotencyKey: 'match-8812-won' },
      { userId: 'player-7', name: 'level_up', payload: { level: 12 }, timestamp: AT + 1_000 },
    ],
  },
  webhookResponse: {
    accepted: true,
    results: [
      { eventId: 'evt_6f1c2d8e-3b4a-4c5d-9e8f-0a1b2c3d4e5f', missionsUpdated: ['win-3-matches'] },
      { eventId: 'evt_9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', missionsUpdated: [] },
    ],
  },
  recommendations: {
    userId: USER,
    missionIds: ['win-3-matches'],
    reason: 'One more ranked win completes your daily mission.',
    fallback: true,
    generatedAt: AT,
  },
  stream:
    `: connected\n\n` +
    `id: 1764158400000-0\ndata: ${JSON.stringify({ type: 'mission.progress', data: { ...progress, status: 'active', progress: 0.6667, currentCount: 2 } })}\n\n` +
    `id: 1764158400000-1\ndata: ${JSON.stringify({ type: 'mission.completed', data: progress })}\n\n`,
  openapi: { openapi: '3.1.0', info: { title: 'Questline API', version: '0.1.0' }, paths: {} },
};
