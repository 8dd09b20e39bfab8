// Ingesting one event: stored, evaluated against the user's open missions of
// that event name, progress created or updated, all in the caller's
// transaction. The caller (recordEvent) publishes the returned updates.
import { randomUUID } from 'node:crypto';
import type { Tx } from '@/db/client';
import { events } from '@/db/schema';
import type { Catalog } from '@/lib/catalog/catalog';
import { claimedMissionIds, evaluateEvent, isMissionLocked, toMissionProgress } from '@/lib/missions/engine';
import type { EngineEvent } from '@/lib/missions/schema';
import { lockUser, readRecords, saveRecord } from '@/lib/progress/records';
import type { SdkUpdate } from '@/lib/contract/updates';

export interface IngestInput {
  appId: string;
  /** Read before the transaction: the embedded database has one connection. */
  catalog: Catalog;
  event: EngineEvent;
  idempotencyKey: string | null;
  source: 'api' | 'webhook';
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

export async function ingestEvent(tx: Tx, input: IngestInput, now = Date.now()): Promise<IngestResult> {
  const { appId, event, catalog } = input;
  await lockUser(tx, appId, event.userId);
  const eventId = `evt_${randomUUID()}`;
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
  });

  const candidates = catalog.byEvent.get(event.name) ?? [];
  if (candidates.length === 0) return { eventId, missionsUpdated: [], missionsCompleted: [], receivedAt: now, updates: [] };

  const related = new Set<string>();
  for (const m of candidates) {
    related.add(m.id);
    m.prerequisites.forEach((p) => related.add(p));
  }
  const records = await readRecords(tx, appId, event.userId, [...related]);
  const claimed = claimedMissionIds(records.values());

  const missionsUpdated: string[] = [];
  const missionsCompleted: string[] = [];
  const updates: SdkUpdate[] = [];
  for (const mission of candidates) {
    const campaign = mission.campaignId ? (catalog.campaigns.get(mission.campaignId) ?? null) : null;
    const locked = isMissionLocked({ mission, campaign, claimedMissionIds: claimed, now });
    const result = evaluateEvent({ mission, campaign, record: records.get(mission.id) ?? null, event, locked, now });
    if (!result) continue;
    await saveRecord(tx, appId, result.record);
    missionsUpdated.push(mission.id);
    if (result.change === 'completed') missionsCompleted.push(mission.id);
    const data = toMissionProgress({ mission, record: result.record, locked: false, now });
    if (data) updates.push({ type: result.change === 'completed' ? 'mission.completed' : 'mission.progress', data });
  }
  return { eventId, missionsUpdated, missionsCompleted, receivedAt: now, updates };
}
