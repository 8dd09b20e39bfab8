// Ingesting one event: stored, evaluated against the user's open missions of
// that event name, progress created or updated, all in the caller's
// transaction. The caller (recordEvent) publishes the returned updates.
import { randomUUID } from 'node:crypto';
import type { Tx } from '@/db/client';
import { events } from '@/db/schema';
import type { Catalog } from '@/lib/catalog/catalog';
import { claimedMissionIds, explainEvent, missionLock, toMissionProgress, type Verdict } from '@/lib/missions/engine';
import type { EngineEvent } from '@/lib/missions/schema';
import { lockUser, readRecords, saveRecord } from '@/lib/progress/records';
import type { SdkUpdate } from '@/lib/contract/updates';
import type { EventSource } from './record-event';

export interface IngestInput {
  appId: string;
  /** Read before the transaction: the embedded database has one connection. */
  catalog: Catalog;
  event: EngineEvent;
  idempotencyKey: string | null;
  source: EventSource;
}

export interface IngestResult {
  eventId: string;
  missionsUpdated: string[];
  /** The missions this event completed (a subset of missionsUpdated). */
  missionsCompleted: string[];
  /** Server time the event was stored at. */
  receivedAt: number;
  updates: SdkUpdate[];
}

/** The stored `outcome` of an event: the verdict of each mission with the event's name, at ingestion. */
export type EventOutcome = Array<{ missionId: string } & Verdict>;

/**
 * The user is locked, the missions with the event's name are judged by the
 * engine (explainEvent), then the event is stored with their verdicts in the
 * same INSERT (no extra round trip) and the changed records are saved.
 */
export async function ingestEvent(tx: Tx, input: IngestInput, now = Date.now()): Promise<IngestResult> {
  const { appId, event, catalog } = input;
  await lockUser(tx, appId, event.userId);
  const eventId = `evt_${randomUUID()}`;
  const candidates = catalog.byEvent.get(event.name) ?? [];

  const outcome: EventOutcome = [];
  const changed: Array<{ mission: (typeof candidates)[number]; evaluation: NonNullable<ReturnType<typeof explainEvent>['evaluation']> }> = [];
  if (candidates.length > 0) {
    const related = new Set<string>();
    for (const m of candidates) {
      related.add(m.id);
      m.prerequisites.forEach((p) => related.add(p));
    }
    const records = await readRecords(tx, appId, event.userId, [...related]);
    const claimed = claimedMissionIds(records.values());
    for (const mission of candidates) {
      const campaign = mission.campaignId ? (catalog.campaigns.get(mission.campaignId) ?? null) : null;
      const lock = missionLock({ mission, campaign, claimedMissionIds: claimed, now });
      const { evaluation, verdict } = explainEvent({ mission, campaign, record: records.get(mission.id) ?? null, event, lock, now });
      outcome.push({ missionId: mission.id, ...verdict });
      if (evaluation) changed.push({ mission, evaluation });
    }
  }

  await tx.insert(events).values({
    id: eventId,
    appId,
    userId: event.userId,
    name: event.name,
    payload: event.payload,
    timestamp: event.timestamp,
    idempotencyKey: input.idempotencyKey,
    source: input.source,
    receivedAt: now,
    outcome,
  });

  const missionsUpdated: string[] = [];
  const missionsCompleted: string[] = [];
  const updates: SdkUpdate[] = [];
  for (const { mission, evaluation } of changed) {
    await saveRecord(tx, appId, evaluation.record);
    missionsUpdated.push(mission.id);
    if (evaluation.change === 'completed') missionsCompleted.push(mission.id);
    const data = toMissionProgress({ mission, record: evaluation.record, locked: false, now });
    if (data) updates.push({ type: evaluation.change === 'completed' ? 'mission.completed' : 'mission.progress', data });
  }
  return { eventId, missionsUpdated, missionsCompleted, receivedAt: now, updates };
}
