// The inspector's admin API (support staff): one user's missions with their
// status and lock, balances, ledger and recent events with the engine's
// verdict per mission; a test event sent as the user. The verdict shapes are
// the engine's (lib/missions/engine.ts NotCounted / Verdict).
import { z } from 'zod';
import { userAttributesSchema } from './attributes';
import { balanceSchema } from './balance';
import { missionSchema } from './mission';
import { missionProgressSchema, progressStatusSchema } from './progress';

export const missionLockSchema = z
  .discriminatedUnion('reason', [
    z.object({ reason: z.literal('campaign_not_started'), campaignId: z.string(), startAt: z.number(), endAt: z.number() }),
    z.object({ reason: z.literal('prerequisites'), missing: z.array(z.string()).describe('Prerequisites the user has not claimed yet') }),
  ])
  .meta({ id: 'MissionLock', description: 'Why events cannot advance the mission for this user now' });

const NOT_COUNTED_CODES = [
  'event_name_mismatch',
  'mission_archived',
  'outside_audience',
  'campaign_not_live',
  'locked_by_prerequisite',
  'expired',
  'outside_window',
  'filter_mismatch',
  'outside_current_window',
  'window_closed',
  'already_completed',
  'already_claimed',
  'not_evaluated',
  // Issue 19 (lib/contract/mission-aggregate.ts): sums, distinct values, streaks.
  'aggregate_value_invalid',
  'distinct_repeat',
  'streak_window_met',
] as const;

export const verdictSchema = z
  .object({
    missionId: z.string(),
    counted: z.boolean(),
    change: z.enum(['progress', 'completed']).optional().describe('When counted'),
    currentCount: z.number().int().optional().describe('When counted: the count after the event (a sum: the running sum rounded down)'),
    targetCount: z.number().int().optional(),
    code: z.enum(NOT_COUNTED_CODES).optional().describe('When not counted: the first rule the event failed'),
  })
  .catchall(z.unknown())
  .meta({
    id: 'Verdict',
    description:
      'The criteria engine’s verdict of one event on one mission, stored at ingestion (missions with the event’s name) or, for a mission with another event name, event_name_mismatch from the same engine; not_evaluated: the mission has the event’s name now but did not when the event arrived. Reason fields: expected/seen (name), key/condition/seen/missing (filter), campaignId/state/startAt/endAt (campaign), missing (prerequisites), expiresAt/timestamp, eventWindowStart/currentWindowStart (outside_current_window: a late event, its window is not the current one by the server clock; timeZone when the user has one). outside_audience: the user is outside the audience of the mission or its campaign. A counted event of a user with a timezone attribute names its bucket and zone (bucket "27 Nov 2026", timeZone "Europe/Berlin"). window_closed (eventWindowStart/recordWindowStart) is only found on events stored before that rule. Sum, distinct and streak missions (criteria.aggregate, criteria.streak): a counted verdict adds `added` (sum: the value added, to the millionth), `value` (distinct: the new value), `streak` ({ current, length } after the event); aggregate_value_invalid (field, reason missing/not_a_number/not_finite/negative/not_a_value, seen), distinct_repeat (field, value: already counted in this window), streak_window_met (streak: this window already met the target).',
  });
export type InspectorVerdict = z.infer<typeof verdictSchema>;

export const inspectedMissionSchema = z
  .object({
    mission: missionSchema,
    status: progressStatusSchema,
    progress: missionProgressSchema.nullable(),
    lock: missionLockSchema.nullable(),
    inAudience: z.boolean().describe('Whether the user is inside the audience of the mission and its campaign (false: the mission does not exist for them)'),
    claimRefusal: z
      .object({
        campaignId: z.string(),
        currency: z.string(),
        amount: z.number().int().describe('The reward the claim asked for'),
        budget: z.number().int().nullable().describe('The campaign’s budget of the currency as the claim read it'),
        at: z.number().int().describe('When the claim was refused'),
      })
      .nullable()
      .describe('The user’s last claim of this completed mission, refused because the campaign’s budget of the reward’s currency was spent (409 budget_exhausted); null when none since the mission was completed'),
  })
  .meta({ id: 'InspectedMission' });

export const ledgerEntrySchema = z
  .object({
    id: z.number(),
    kind: z.enum(['currency', 'item', 'badge']),
    currency: z.string().nullable(),
    amount: z.number().nullable(),
    itemId: z.string().nullable(),
    quantity: z.number().nullable(),
    badgeId: z.string().nullable(),
    missionId: z.string().nullable(),
    balanceAfter: z.number().nullable(),
    createdAt: z.number(),
    actor: z.string().nullable().describe('Staff grants and corrections: who (staff:<email> or admin-api-key); `backend` for a spend by the game backend; null for mission rewards'),
    reason: z.string().nullable().describe('Staff grants, corrections and spends: why'),
  })
  .meta({ id: 'LedgerEntry' });

export const inspectedEventSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    payload: z.record(z.string(), z.unknown()),
    timestamp: z.number(),
    receivedAt: z.number(),
    source: z.string().describe('api, webhook or test (sent from the inspector)'),
    verdicts: z.array(verdictSchema).nullable().describe('One per mission of the catalog; null for events stored before verdicts were kept'),
  })
  .meta({ id: 'InspectedEvent' });

/** GET …/users/:userId/events query: every stored event of the user, newest first, a page at a time. */
export const inspectorEventsQuerySchema = z
  .object({
    before: z.string().max(400).optional().describe('nextCursor of the previous page (or eventsNextCursor of the inspection): the events after it'),
    name: z.string().min(1).max(128).optional().describe('Only events of this name'),
    from: z.coerce.number().int().nonnegative().optional().describe('Only events at or after this time (unix ms, the event’s timestamp)'),
    to: z.coerce.number().int().nonnegative().optional().describe('Only events before this time (unix ms, the event’s timestamp)'),
    limit: z.coerce.number().int().min(1).max(100).default(50),
  })
  .strict();
export type InspectorEventsQuery = z.output<typeof inspectorEventsQuerySchema>;

export const inspectedEventPageSchema = z
  .object({
    events: z.array(inspectedEventSchema).describe('Newest first (by event time, then arrival)'),
    nextCursor: z.string().nullable().describe('Pass as `before` for the next (older) page; null on the last page'),
  })
  .meta({ id: 'InspectedEventPage' });
export type InspectedEventPage = z.infer<typeof inspectedEventPageSchema>;

const erasureRecordSchema = z
  .object({
    erasedAt: z.number().describe('When (unix ms)'),
    actor: z.string().describe('Who: staff:<email> or admin-api-key'),
    reason: z.string().nullable().describe('The reason given (a request reference, say)'),
  })
  .meta({ id: 'ErasureRecord', description: 'The latest data erasure of this user id, from the audit log (which keeps who, when and why, not the data)' });

export const inspectionSchema = z
  .object({
    appId: z.string(),
    userId: z.string(),
    attributes: userAttributesSchema.describe('The user’s attributes (token request, webhook `users`); {} when none'),
    timeZone: z.string().describe('The zone of the user’s daily, weekly and monthly windows: their `timezone` attribute, else UTC'),
    missions: z.array(inspectedMissionSchema).describe('Every mission not archived, in catalog order'),
    balances: z.array(balanceSchema),
    ledger: z.array(ledgerEntrySchema).describe('Newest first, at most 50'),
    events: z.array(inspectedEventSchema).describe('Newest first (by event time, then arrival), at most 50'),
    eventsNextCursor: z.string().nullable().describe('More events than these: pass as `before` to GET …/users/:userId/events for the older ones; null when these are all'),
    seen: z
      .object({ firstSeenAt: z.number(), lastSeenAt: z.number(), events: z.number().int().nonnegative() })
      .nullable()
      .describe('When the app first and last stored an event of the user, and how many; null: never seen (or erased since)'),
    erasure: erasureRecordSchema.nullable().describe('The latest erasure of this user id; null when never erased'),
    campaigns: z.array(z.object({ id: z.string(), title: z.string() })).describe('Every campaign of the catalog by id and title, so locks and verdicts can name campaigns by title'),
  })
  .meta({ id: 'Inspection' });
export type Inspection = z.infer<typeof inspectionSchema>;

/**
 * The staff stream's own message (GET /api/admin/apps/:appId/users/:userId/updates,
 * never the player's /v1/sse/updates): every event of the user as it is stored,
 * with its verdicts as the inspection shows them, sent after commit and live
 * only (an SSE frame without `id:`, not in the update log, not replayed).
 */
export const eventRecordedUpdateSchema = z
  .object({ type: z.literal('event.recorded'), data: inspectedEventSchema.extend({ userId: z.string() }) })
  .meta({ id: 'EventRecordedUpdate', description: 'Staff stream only: one stored event with its verdicts, live (no id, not replayed on resume)' });
type EventRecordedUpdate = z.infer<typeof eventRecordedUpdateSchema>;
export type RecordedEventData = EventRecordedUpdate['data'];

export const testEventSchema = z
  .object({
    name: z.string().min(1).max(128),
    payload: z.record(z.string(), z.unknown()).default({}),
    timestamp: z.number().int().nonnegative().max(8_640_000_000_000_000).optional().describe('Unix ms; default now; at most 5 minutes ahead and 7 days back of the server clock'),
  })
  .strict()
  .meta({ id: 'TestEvent', description: 'Recorded as the user through the same path as POST /v1/events, with source "test", and audited' });
