// Examples of the admin API's requests and answers, as its OpenAPI document
// shows them (lib/http/admin/openapi.ts). The document's tests validate each
// against its schema, and both linters check them too.
import { EXAMPLE_AT, exampleMissionBase } from './examples';

const AT = EXAMPLE_AT;
const DAY = 86_400_000;

const app = { id: 'demo', name: 'Demo game', createdAt: AT - 30 * DAY, secretRotatedAt: AT - 30 * DAY, previousWebhookSecretExpiresAt: null, webhookEventsPerMinute: null, grantLimits: null, requireApproval: false };
const missionDefinition = { ...exampleMissionBase, archived: false, audience: { platform: 'ios', level: { gte: 10 } } };
/** Issue 19: a distinct-values mission (criteria.aggregate) with a weekly streak that repeats. */
const modesStreakDefinition = {
  ...missionDefinition,
  id: 'three-modes-weekly',
  title: 'Play 3 different modes every week, 4 weeks in a row',
  description: '',
  criteria: { eventName: 'match_played', count: 3, window: 'weekly', aggregate: { op: 'distinct', field: 'mode' }, streak: { length: 4, repeat: true } },
  campaignId: null,
};
const missionRecord = { ...missionDefinition, version: 3, createdAt: AT - 7 * DAY, updatedAt: AT };
const themePreset = { id: 'winter', name: 'Winter', primaryColor: '#1e66f5', accentColor: '#89dceb', backgroundColor: '#eff1f5', textColor: '#4c4f69' };
const themeRecord = { ...themePreset, version: 2, createdAt: AT - 7 * DAY, updatedAt: AT, usedBy: ['winter-festival'] };
const campaignInput = {
  id: 'winter-festival',
  title: 'Winter festival',
  description: 'Two weeks of snow-themed missions.',
  startAt: AT,
  endAt: AT + 14 * DAY,
  missionIds: ['win-3-matches'],
  bannerUrl: 'https://cdn.example.com/winter.png',
  archived: false,
  themeId: 'winter',
  budget: [{ currency: 'gems', amount: 50000 }],
};
const campaignRecord = { ...campaignInput, version: 2, createdAt: AT - 7 * DAY, updatedAt: AT };
const budgetAlert = { type: 'budget.alert', campaignId: 'winter-festival', currency: 'gems', threshold: 80, spent: 40000, budget: 50000, missionId: 'win-3-matches', at: AT - DAY };
const campaignRead = { ...campaignRecord, budgetSpent: { gems: 41250 }, budgetAlerts: [budgetAlert], budgetRefusals: [] };
const staffMember = { id: 'stf_8Qm2', email: 'dana@example.com', name: 'Dana', role: 'editor', createdAt: AT - 10 * DAY };
const progress = { userId: 'player-42', missionId: 'win-3-matches', status: 'active', progress: 0.6667, currentCount: 2, targetCount: 3, updatedAt: AT };

export const adminExamples = {
  me: {
    kind: 'staff',
    staff: { id: 'stf_8Qm2', email: 'dana@example.com', name: 'Dana' },
    role: 'editor',
    capabilities: ['apps.read', 'catalog.read', 'catalog.write', 'players.read', 'analytics.read'],
  },
  appList: { apps: [app] },
  createApp: { id: 'space-race', name: 'Space race' },
  createdApp: {
    app: { ...app, id: 'space-race', name: 'Space race', createdAt: AT, secretRotatedAt: AT },
    appSecret: 'qs_3k9VZr2mN8pQ1wX7bT4yL6cJ0hF5dS2aG8eK1uR9iO0',
    webhookSecret: 'whsec_Yt7Pq2Lm9Xv4Bn6Cz1Rk8Wd3Fs5Hj0Ga',
  },
  updateApp: { webhookEventsPerMinute: 120_000 },
  appAnswer: { app: { ...app, webhookEventsPerMinute: 120_000 } },
  rotatedAppSecret: { appId: 'demo', appSecret: 'qs_Wm4Tz8Kp1Rv6Nq3Yx9Bc2Lf7Hd5Js0Ga4Ue8Io1Pk3' },
  rotateWebhookSecret: { gracePeriodSeconds: 3600 },
  rotatedWebhookSecret: { appId: 'demo', webhookSecret: 'whsec_Nc5Vb8Mx2Lk7Jh4Gf1Ds9Aq3Wz6Et0Ry', previousSecretExpiresAt: AT + 3_600_000 },
  catalog: { missions: [missionDefinition, modesStreakDefinition], campaigns: [campaignInput], themes: [themePreset] },
  themePreset,
  themeList: { themes: [themeRecord] },
  themeAnswer: { theme: themeRecord },
  updateTheme: { ...themePreset, primaryColor: '#04a5e5', version: 1 },
  campaignList: { campaigns: [campaignRead] },
  campaignAnswer: { campaign: campaignRead },
  campaignWritten: { campaign: campaignRecord },
  createCampaign: campaignInput,
  updateCampaign: { ...campaignInput, title: 'Winter festival (extended)', endAt: AT + 21 * DAY, version: 1 },
  revocation: { userId: 'player-42' },
  revoked: { revoked: true, userId: 'player-42' },
  analytics: {
    appId: 'demo',
    from: AT - DAY,
    to: AT,
    bucket: 'hour',
    bucketMs: 3_600_000,
    totals: { events: 1240, completions: 87, claims: 80, claimsRefused: 3 },
    series: [{ start: AT - 3_600_000, events: 52, completions: 4, claims: 3, claimsRefused: 1 }],
    eventNames: [{ name: 'match_won', count: 1240 }],
    missions: [{ missionId: 'win-3-matches', completions: 87, claims: 80 }],
    currencies: [{ currency: 'gems', amount: 4000, grants: 80 }],
    refusals: [{ campaignId: 'winter-festival', currency: 'gems', count: 3 }],
  },
  inspection: {
    appId: 'demo',
    userId: 'player-42',
    attributes: { platform: 'ios', level: 12, timezone: 'Europe/Berlin' },
    timeZone: 'Europe/Berlin',
    missions: [{ mission: missionDefinition, status: 'active', progress, lock: null, inAudience: true, claimRefusal: null }],
    balances: [{ userId: 'player-42', currency: 'gems', amount: 150, updatedAt: AT }],
    ledger: [
      { id: 311, kind: 'currency', currency: 'gems', amount: 50, itemId: null, quantity: null, badgeId: null, missionId: 'win-3-matches', balanceAfter: 150, createdAt: AT - DAY, actor: null, reason: null },
    ],
    events: [
      {
        id: 'evt_6f1c2d8e-3b4a-4c5d-9e8f-0a1b2c3d4e5f',
        name: 'match_won',
        payload: { mode: 'ranked' },
        timestamp: AT,
        receivedAt: AT,
        source: 'api',
        verdicts: [{ missionId: 'win-3-matches', counted: true, change: 'progress', currentCount: 2, targetCount: 3, bucket: '26 Nov 2025', timeZone: 'Europe/Berlin' }],
      },
    ],
    eventsNextCursor: null,
    seen: { firstSeenAt: AT - 30 * DAY, lastSeenAt: AT, events: 1 },
    erasure: null,
    campaigns: [{ id: 'winter-cup', title: 'Winter Cup' }],
  },
  testEvent: { name: 'match_won', payload: { mode: 'ranked' } },
  recordedEvent: { accepted: true, eventId: 'evt_0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a', missionsUpdated: ['win-3-matches'] },
  stream: `: connected\n\nid: 1764158400000-0\ndata: ${JSON.stringify({ type: 'mission.progress', data: progress })}\n\n`,
  staffList: { staff: [staffMember] },
  createStaff: { email: 'dana@example.com', name: 'Dana', role: 'editor' },
  createdStaff: { staff: staffMember, password: 'b7Kq-2mVx-9TzR-4pLw' },
  updateStaff: { role: 'support' },
  updatedStaff: { staff: { ...staffMember, role: 'support' } },
  missionList: { missions: [missionRecord] },
  missionDefinition,
  missionRecord,
  missionUpdate: { ...missionDefinition, title: 'Win 3 ranked or casual matches', criteria: { eventName: 'match_won', count: 3, window: 'daily' }, version: 3 },
  missionDuplicate: { id: 'win-3-matches-weekly', title: 'Win 3 ranked matches this week' },
  missionArchive: { version: 3 },
  payloadFields: { name: 'match_won', sampled: 120, fields: [{ path: 'mode', events: 120, examples: ['ranked', 'casual'] }, { path: 'match.kills', events: 96, examples: [7, 12, 3] }] },
  eventNames: { eventNames: [{ name: 'match_won', lastSeenAt: AT }, { name: 'level_up', lastSeenAt: null }] },
  auditPage: {
    entries: [
      {
        id: 912,
        at: AT,
        actor: 'staff:dana@example.com',
        action: 'mission.update',
        appId: 'demo',
        target: 'mission:win-3-matches',
        before: { title: 'Win 3 ranked matches' },
        after: { title: 'Win 3 ranked or casual matches' },
      },
    ],
    nextCursor: 911,
  },
  openapi: { openapi: '3.1.0', info: { title: 'Questline admin API', version: '0.1.0' }, paths: {} },
  draft: {
    catalog: { missions: [{ ...missionDefinition, criteria: { ...missionDefinition.criteria, count: 2 } }], campaigns: [campaignInput], themes: [themePreset] },
    baseRelease: 7,
    changes: [{ kind: 'mission', id: 'win-3-matches', change: 'changed' }],
    updatedAt: AT,
    updatedBy: 'staff:dana@example.com',
    scheduledAt: null,
    schedule: null,
    changeDetails: [{ kind: 'mission', id: 'win-3-matches', change: 'changed', fields: [{ path: 'criteria.count', before: 3, after: 2 }] }],
    warnings: [],
  },
  draftMission: { ...missionDefinition, criteria: { ...missionDefinition.criteria, count: 2 } },
  draftCampaign: campaignInput,
  draftTheme: themePreset,
  draftItemReverted: {
    draft: { catalog: { missions: [missionDefinition], campaigns: [campaignInput], themes: [themePreset] }, baseRelease: 7, changes: [], updatedAt: AT, updatedBy: 'staff:dana@example.com', scheduledAt: null, schedule: null, changeDetails: [], warnings: [] },
    restored: 'live',
  },
  duplicateCampaign: { id: 'spring-festival', title: 'Spring festival' },
  campaignDuplicated: {
    draft: {
      catalog: {
        missions: [missionDefinition, { ...missionDefinition, id: 'win-3-matches-copy', campaignId: 'spring-festival' }],
        campaigns: [campaignInput, { ...campaignInput, id: 'spring-festival', title: 'Spring festival', missionIds: ['win-3-matches-copy'] }],
        themes: [themePreset],
      },
      baseRelease: 7,
      changes: [
        { kind: 'campaign', id: 'spring-festival', change: 'added' },
        { kind: 'mission', id: 'win-3-matches-copy', change: 'added' },
      ],
      updatedAt: AT,
      updatedBy: 'staff:dana@example.com',
      scheduledAt: null,
      schedule: null,
      changeDetails: [
        { kind: 'campaign', id: 'spring-festival', change: 'added', fields: [{ path: 'title', before: null, after: 'Spring festival' }] },
        { kind: 'mission', id: 'win-3-matches-copy', change: 'added', fields: [{ path: 'campaignId', before: null, after: 'spring-festival' }] },
      ],
      warnings: [],
    },
    campaignId: 'spring-festival',
    missionIds: { 'win-3-matches': 'win-3-matches-copy' },
  },
  missionProgress: { missionId: 'win-3-matches', players: 12, active: 4, completed: 5, claimed: 3 },
  publishNow: {},
  draftEconomy: {
    currencies: [
      { id: 'gems', name: 'Gems', iconUrl: 'https://cdn.example.com/gems.png', maxBalance: 100_000 },
      { id: 'coins', name: 'Coins' },
    ],
    items: [{ id: 'winter-badge', name: 'Winter badge', kind: 'badge' as const }],
  },
  economy: {
    currencies: [
      { id: 'coins', name: 'Coins', implied: false },
      { id: 'gems', name: 'Gems', iconUrl: 'https://cdn.example.com/gems.png', maxBalance: 100_000, implied: false },
    ],
    items: [
      { id: 'legendary-sword', name: 'legendary-sword', kind: 'item' as const, implied: true },
      { id: 'winter-badge', name: 'Winter badge', kind: 'badge' as const, implied: false },
    ],
    defined: { currencies: true, items: true },
  },
  impactInput: { days: 30 },
  previewInput: { attributes: { platform: 'ios', level: 12, timezone: 'Asia/Tokyo' }, progress: { 'win-3-matches': { count: 2 } }, at: 1767225600000 },
  impact: {
    from: AT - 30 * DAY,
    to: AT,
    events: 1_240,
    missions: [
      {
        missionId: 'win-3-matches',
        change: 'changed',
        live: { inProgress: 4, completed: 8 },
        draft: { inProgress: 9, completed: 3 },
        payout: { live: { gems: 400 }, draft: { gems: 150 } },
        notLive: { live: null, draft: null },
        asIfLive: null,
        claimRate: { rate: 0.75, basis: 'mission', claims: 6, completions: 8 },
        payoutAtClaimRate: { live: { gems: 300 }, draft: { gems: 113 } },
      },
      {
        missionId: 'play-5-matches',
        change: 'changed',
        live: { inProgress: 0, completed: 0 },
        draft: { inProgress: 0, completed: 0 },
        payout: { live: {}, draft: {} },
        notLive: { live: 'campaign_not_started', draft: 'campaign_not_started' },
        asIfLive: {
          live: { inProgress: 5, completed: 12 },
          draft: { inProgress: 5, completed: 12 },
          payout: { live: { coins: 1_200 }, draft: { coins: 120_000 } },
          payoutAtClaimRate: { live: { coins: 960 }, draft: { coins: 96_000 } },
        },
        claimRate: { rate: 0.8, basis: 'app', claims: 96, completions: 120 },
        payoutAtClaimRate: { live: {}, draft: {} },
      },
    ],
  },
  publishAt: { at: AT + DAY },
  published: { release: 8, publishedAt: AT },
  scheduled: { scheduledAt: AT + DAY },
  releaseList: {
    releases: [
      { release: 8, publishedAt: AT, publishedBy: 'staff:dana@example.com', changes: [{ kind: 'mission', id: 'win-3-matches', change: 'changed' }] },
      { release: 7, publishedAt: AT - DAY, publishedBy: 'admin-api-key', changes: [{ kind: 'campaign', id: 'winter-festival', change: 'added' }, { kind: 'mission', id: 'win-3-matches', change: 'added' }] },
    ],
    scheduled: {
      scheduledAt: AT + DAY,
      scheduledBy: 'staff:dana@example.com',
      changes: [{ kind: 'theme', id: 'winter', change: 'changed' }],
      release: 9,
      changesSince: [{ kind: 'mission', id: 'win-3-matches', change: 'changed' }],
    },
  },
  unscheduled: { scheduledAt: null },
  approvalRequested: {
    approval: {
      requestedBy: 'staff:dana@example.com',
      requestedAt: AT,
      publishAt: null,
      release: 9,
      changes: [{ kind: 'mission', id: 'win-3-matches', change: 'changed' }],
      changeDetails: [{ kind: 'mission', id: 'win-3-matches', change: 'changed', fields: [{ path: 'reward', before: { currency: 'gems', amount: 50 }, after: { currency: 'gems', amount: 80 } }] }],
      warnings: [],
      changesSince: [],
    },
  },
  approve: { acknowledgeWarnings: true, requestedAt: AT },
  reject: { reason: 'Keep the reward at 50 gems until the spring sale ends' },
  approvalClosed: { approval: null, draft: { changes: [{ kind: 'mission', id: 'win-3-matches', change: 'changed' }] } },
};
