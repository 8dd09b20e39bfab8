// Recording events: the one path every event takes, whether it arrives on
// POST /v1/events, in a webhook delivery or as a staff member's test event
// (its verbs: lib/services/events/record-event.ts and record-events.ts).
// The event-time bound first (./event-time.ts), then idempotency under the event's key
// (the key-value store's 24 h answer, else the database row), evaluation
// against the in-memory catalog, then the write (lib/events/write-event.ts):
// two statements and no transaction of its own for a standalone event, one
// for an event that advances nothing or whose user's records this process
// has cached from the user's last event (lib/progress/user-state.ts); after commit, the stream updates are
// published in the user's change order, the stored event announced on the
// user's staff channel (lib/updates/staff.ts) and the answer cached, side by side.
// The dashboard's rollups are written by the same statement as the event (in a batch:
// once, sorted, at its end).
import { newEventId } from '@/lib/events/event-id';
import type { DbOrTx } from '@/db/client';
import type { UnitOfWork } from '@/db/unit-of-work';
import { eventRollups, rollupRows, upsertRollupRows, type RollupRow } from '@/lib/analytics/rollups';
import type { Catalog } from '@/lib/catalog/catalog';
import type { SdkUpdate } from '@/lib/contract/updates';
import { AppError } from '@/lib/errors';
import { cacheOutcome, cachedOutcome, hashRequest, idempotencyMismatch, storedBody, type Outcome } from '@/lib/idempotency/run-idempotent';
import { claimedMissionIds, explainEvent, missionLock, toMissionProgress, type Verdict } from '@/lib/missions/engine';
import type { EngineEvent, ProgressRecord } from '@/lib/missions/schema';
import { lockUser, lockUsers } from '@/lib/progress/records';
import { outboxRows, wantsAny } from '@/lib/outbound/outbox';
import { kickOutbound } from '@/lib/outbound/worker';
import { zoneOf, type UserAttributes } from '@/lib/users/attributes';
import { PREDECESSOR_SETTLED_MS } from '@/lib/updates/log';
import { publishInOrder } from '@/lib/updates/publish';
import { announceStoredEvent } from '@/lib/updates/staff';
import { getBus } from '@/lib/bus';
import { batchedReadForEvent, cachedForEvent, forgetUserState, readForEvent, rememberEventState, type StoredAnswer } from '@/lib/progress/user-state';
import { checkEventTime } from './event-time';
import { inUserQueue } from './user-queue';
import { readStoredAnswer, writeEvent, type EventWrite } from './write-event';
import { groupedWriteEvent } from './write-batch';

const COMPLETED = ['mission.completed'] as const;

/** The answer to one recorded event, byte for byte what POST /v1/events returns and replays. */
export interface RecordedEvent {
  accepted: true;
  eventId: string;
  missionsUpdated: string[];
}

/** Where an event came from: `/v1/events`, a webhook delivery, or a staff member's test event (inspector). */
export type EventSource = 'api' | 'webhook' | 'test';

/**
 * Where an event is recorded. Standalone (no `uow`): with statements of its
 * own on `db` (autocommit). Joined: in the caller's unit of work, whose
 * transaction is `db`; the catalog was then read before it opened (the
 * embedded database has one connection).
 */
export interface EventRecording {
  appId: string;
  source: EventSource;
  db: DbOrTx;
  uow?: UnitOfWork;
  catalog: Catalog;
  /** The service clock. */
  now(): number;
}

export interface RecordEventInput {
  event: EngineEvent;
  /** The caller's key (header or body), without namespace; null for none. */
  idempotencyKey: string | null;
  /**
   * The key-value store's cached answer for the key, already read by the
   * caller in the same round trip as the token checks (a string, or null when
   * absent); undefined when not read.
   */
  cachedAnswer?: string | null;
}

/**
 * Writes lost to concurrent changes of the same user before giving up with
 * 503 (each loser reads and evaluates again). A user's events on this
 * instance take turns (./user-queue.ts), so only writers elsewhere (another
 * instance, a webhook delivery, a claim) can make a write lose.
 */
const MAX_LOST_WRITES = 50;
let maxLostWrites = MAX_LOST_WRITES;

/** Test hook: lowers the bound (e.g. to 1, to show that a burst no longer contends); null restores it. */
export function setMaxLostWritesForTests(bound: number | null): void {
  maxLostWrites = bound ?? MAX_LOST_WRITES;
}

/** The key under which an event's answer is stored: namespaced so it can never collide with a claim's `claim:` key. */
export const eventKey = (idempotencyKey: string) => `event:${idempotencyKey}`;

/** The stored `outcome` of an event: the verdict of each mission with the event's name, at ingestion. */
type EventOutcome = Array<{ missionId: string } & Verdict>;

/** Judges the event against every mission with its name (explainEvent): the records to save, the answer, the stream updates and the verdicts. */
function evaluate(catalog: Catalog, event: EngineEvent, records: Map<string, ProgressRecord>, attributes: UserAttributes, now: number) {
  const zone = zoneOf(attributes);
  const candidates = catalog.byEvent.get(event.name) ?? [];
  const missionsUpdated: string[] = [];
  const missionsCompleted: string[] = [];
  const updates: SdkUpdate[] = [];
  const toSave: ProgressRecord[] = [];
  const outcome: EventOutcome = [];
  const claimed = claimedMissionIds(records.values());
  for (const mission of candidates) {
    const campaign = mission.campaignId ? (catalog.campaigns.get(mission.campaignId) ?? null) : null;
    const lock = missionLock({ mission, campaign, claimedMissionIds: claimed, now });
    const { evaluation, verdict } = explainEvent({ mission, campaign, record: records.get(mission.id) ?? null, event, lock, now, zone, attributes });
    outcome.push({ missionId: mission.id, ...verdict });
    if (!evaluation) continue;
    toSave.push(evaluation.record);
    missionsUpdated.push(mission.id);
    if (evaluation.change === 'completed') missionsCompleted.push(mission.id);
    const data = toMissionProgress({ mission, record: evaluation.record, locked: false, now, zone });
    if (data) updates.push({ type: evaluation.change === 'completed' ? 'mission.completed' : 'mission.progress', data });
  }
  return { missionsUpdated, missionsCompleted, updates, toSave, outcome };
}

/** The missions whose records evaluation reads: the event's candidates and their prerequisites. */
function relatedMissionIds(catalog: Catalog, eventName: string): string[] {
  const related = new Set<string>();
  for (const m of catalog.byEvent.get(eventName) ?? []) {
    related.add(m.id);
    m.prerequisites.forEach((p) => related.add(p));
  }
  return [...related];
}

function replayOf(stored: StoredAnswer, requestHash: string): Outcome<RecordedEvent> {
  if (stored.hash !== requestHash) throw idempotencyMismatch();
  return { status: stored.status, body: storedBody<RecordedEvent>(stored.response), replay: 'db-hit' };
}

/**
 * Records one event: refused when its time is out of bounds (the error the
 * event's source answers: ./event-time.ts), before its key is looked up;
 * else the stored answer of its key, or a new write.
 */
export async function recordOne(ctx: EventRecording, input: RecordEventInput): Promise<Outcome<RecordedEvent>> {
  checkEventTime(input.event.timestamp, ctx.now(), ctx.source);
  return recordChecked(ctx, input);
}

/** recordOne after the time check. `rollups`: a batch's rollup rows (recordBatch), which the written event's rows join instead of its statement. */
async function recordChecked(ctx: EventRecording, input: RecordEventInput, rollups?: RollupRow[]): Promise<Outcome<RecordedEvent>> {
  const { appId } = ctx;
  const { event, idempotencyKey } = input;
  const key = idempotencyKey === null ? null : eventKey(idempotencyKey);
  // The same event under the same key, whichever way it arrived, is the same request.
  const requestHash = hashRequest({ userId: event.userId, name: event.name, payload: event.payload, timestamp: event.timestamp });
  const idemScope = { appId, userId: event.userId, key, requestHash };

  const cached = await cachedOutcome<RecordedEvent>(idemScope, input.cachedAnswer);
  if (cached) return cached;
  const write = { ctx, event, idempotencyKey, idemScope, rollups };
  // Joined, the caller's transaction holds the user's row lock; standalone, the user's events here wait their turn.
  if (ctx.uow) return writeRecorded(write);
  // The queue covers read, evaluate and write; the after-commit steps (publish,
  // idempotency cache) run outside it, so a slow publish does not hold the
  // user's next event (publishInOrder keeps the stream in sequence order).
  const afterWrite: Array<() => Promise<void>> = [];
  const outcome = await inUserQueue(`${appId}\u0000${event.userId}`, () => writeRecorded({ ...write, afterWrite }));
  await Promise.all(afterWrite.map((step) => step()));
  return outcome;
}

/** Read, evaluate and write one event, again after each write lost to another change of the user. */
async function writeRecorded(args: {
  ctx: EventRecording;
  event: EngineEvent;
  idempotencyKey: string | null;
  /**
   * A batch's rollup rows: the written event's rows are added here instead
   * of to its statement, and the batch upserts them all once, sorted, at
   * its end (recordBatch). Rows of one minute and name shared by
   * concurrent deliveries are then locked in one order, never crossing.
   */
  rollups?: RollupRow[];
  idemScope: { appId: string; userId: string; key: string | null; requestHash: string };
  /** Standalone in the user's queue: the after-commit steps are handed back here, to run once the queue moved on. */
  afterWrite?: Array<() => Promise<void>>;
}): Promise<Outcome<RecordedEvent>> {
  const { ctx, event, idempotencyKey, idemScope, afterWrite, rollups: batchRollups } = args;
  const { appId, source, catalog, db } = ctx;
  const { key, requestHash } = idemScope;
  const scope = { appId, userId: event.userId };
  // Joined (a webhook delivery's transaction): the user's row is locked for
  // the rest of the transaction, so the sequence number read cannot move.
  if (ctx.uow) await lockUser(ctx.uow.tx, appId, event.userId);
  const related = relatedMissionIds(catalog, event.name);
  const after = (step: () => Promise<void>) => (ctx.uow ? ctx.uow.afterCommit(step) : step());

  // Standalone, the user's records and sequence number cached by their last
  // event here stand in for the read (lib/progress/user-state.ts): the
  // write's sequence check turns a stale entry into another attempt.
  let useCache = !ctx.uow;
  for (let lost = 0; lost < maxLostWrites; ) {
    const now = ctx.now();
    const cachedRead = useCache && related.length > 0 ? cachedForEvent(appId, event.userId, related) : undefined;
    // An event no mission reads needs no records; a keyed one still finds its stored answer through the write.
    const read = cachedRead
      ? { ...cachedRead, stored: null }
      : related.length > 0
        ? await (ctx.uow ? readForEvent(db, scope, key, related) : batchedReadForEvent(db, { scope, key, missionIds: related }))
        : { seq: null, stored: null, records: new Map<string, ProgressRecord>(), attributes: {} };
    if (read.stored) return replayOf(read.stored, requestHash);
    const { missionsUpdated, missionsCompleted, updates, toSave, outcome: verdicts } = evaluate(catalog, event, read.records, read.attributes, now);
    // A write without progress rows has no sequence check: its verdicts must come from the database's records, not the cache's.
    if (cachedRead && toSave.length === 0) {
      useCache = false;
      continue;
    }
    const eventId = newEventId(now);
    const rollups = rollupRows({ appId, userId: event.userId, at: now, deltas: eventRollups(event.name, missionsCompleted) });
    const body: RecordedEvent = { accepted: true, eventId, missionsUpdated };
    const response = JSON.stringify(body);
    const eventWrite: EventWrite = {
      eventId,
      name: event.name,
      payload: event.payload,
      timestamp: event.timestamp,
      idempotencyKey,
      source,
      receivedAt: now,
      keyRow: key === null ? null : { key, requestHash, status: 200, response },
      records: toSave,
      expectedSeq: read.seq,
      outcome: verdicts,
      // The dashboard's counts, in the same statement (lib/analytics/rollups.ts), or in the batch's at its end.
      rollups: batchRollups ? [] : rollups,
      // Outbound webhooks (mission.completed), in the same statement; nothing for an app without such an endpoint.
      outbox:
        missionsCompleted.length > 0 && wantsAny(catalog.endpoints, COMPLETED)
          ? outboxRows(
              catalog.endpoints,
              updates.filter((u) => u.type === 'mission.completed').map((u) => ({ type: 'mission.completed' as const, data: u.data })),
            )
          : undefined,
    };
    // Standalone, the write commits with the other users' writes issued at the same time (group commit, ./write-batch.ts).
    const written = ctx.uow ? await writeEvent(db, scope, eventWrite) : await groupedWriteEvent(db, scope, eventWrite);
    if (written.kind === 'stale') {
      forgetUserState(appId, event.userId);
      useCache = false;
      lost++;
      continue;
    }
    const seq = written.seq;
    if (ctx.uow) {
      // Not committed yet: the entry (if any) only goes stale, which the next write's check catches.
    } else if (written.kind === 'written') {
      rememberEventState(appId, event.userId, { readSeq: read.seq, seq: seq ?? read.seq, seqAt: seq === null ? (read.seqAt ?? null) : now }, related, read.records, toSave, read.attributes);
    } else forgetUserState(appId, event.userId);
    // The change before this one committed long ago (a player back after a day): its stream message is not on its way.
    const settled = seq !== null && read.seq !== null && seq === read.seq + 1 && read.seqAt != null && now - read.seqAt >= PREDECESSOR_SETTLED_MS;
    // Every sequence number taken is published, even with nothing to say, so later changes need not wait for it.
    const publish = seq === null ? null : () => publishInOrder(appId, event.userId, seq, written.kind === 'written' ? updates : [], { settled });
    if (written.kind === 'key-taken') {
      if (publish) await after(publish);
      const stored = await readStoredAnswer(db, scope, key!);
      if (stored) return replayOf(stored, requestHash);
      lost++;
      continue;
    }
    if (batchRollups) batchRollups.push(...rollups);
    const outcome: Outcome<RecordedEvent> = { status: 200, body, replay: null };
    const steps: Array<() => Promise<void>> = [];
    if (publish) steps.push(publish);
    // Every stored event, with its verdicts, for the staff watching the user
    // (the inspector's live panel), including one that changed nothing and so
    // took no sequence number and publishes nothing on the player's stream.
    const stored = { kind: 'event.recorded' as const, id: eventId, userId: event.userId, name: event.name, payload: event.payload, timestamp: event.timestamp, receivedAt: now, source, outcome: verdicts };
    steps.push(() => announceStoredEvent(getBus(), appId, stored));
    if (key !== null) steps.push(() => cacheOutcome(idemScope, outcome));
    if (written.notified > 0) steps.push(async () => kickOutbound());
    if (ctx.uow) for (const step of steps) ctx.uow.afterCommit(step);
    else if (afterWrite) afterWrite.push(...steps);
    else await Promise.all(steps.map((step) => step()));
    return outcome;
  }
  throw new AppError('unavailable', 'Too many concurrent changes of this user; retry later');
}

/**
 * Records several events in the caller's unit of work, in order, all or
 * nothing. Every event's time is checked first (the first out of bounds
 * refuses the batch, named `events[i]`), every user of the batch is locked,
 * in one global order, and the batch's rollups are upserted last, once, in
 * their global order (lib/analytics/rollups.ts), so concurrent batches over
 * overlapping users or shared rollup rows cannot deadlock. A failing event
 * fails the batch; its error message is prefixed with `events[i]`.
 */
export async function recordBatch(ctx: EventRecording & { uow: UnitOfWork }, events: readonly RecordEventInput[]): Promise<RecordedEvent[]> {
  checkEventTimes(ctx, events);
  await lockUsers(ctx.uow.tx, ctx.appId, events.map((e) => e.event.userId));
  const results: RecordedEvent[] = [];
  const rollups: RollupRow[] = [];
  for (const [index, one] of events.entries()) {
    try {
      results.push((await recordChecked(ctx, one, rollups)).body);
    } catch (err) {
      if (err instanceof AppError) throw new AppError(err.code, `events[${index}]: ${err.message}`, { extra: err.extra, headers: err.headers, cause: err });
      throw err;
    }
  }
  await upsertRollupRows(ctx.uow.tx, rollups);
  return results;
}

/** The event-time bound of every event of a batch, before anything of it is read or written: the first out of bounds is named `events[i]`. */
export function checkEventTimes(ctx: Pick<EventRecording, 'source' | 'now'>, events: readonly RecordEventInput[]): void {
  const now = ctx.now();
  events.forEach(({ event }, index) => checkEventTime(event.timestamp, now, ctx.source, `events[${index}].`));
}
