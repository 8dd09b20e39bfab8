// The inspector's verdicts of one stored event: one per mission (not
// archived) of the current catalog. Used by the inspection (GET …/users/:userId)
// and by the staff stream's event.recorded messages, so the live panel and a
// reload show the same thing.
import type { Catalog } from '@/lib/catalog/catalog';
import type { InspectorVerdict } from '@/lib/contract/inspector';
import { explainEvent } from '@/lib/missions/engine';
import type { ServiceContext } from '../context';

type StoredVerdict = { missionId: string; counted: boolean } & Record<string, unknown>;

/** What verdicts are built from: the stored row's fields. */
export interface StoredEventFields {
  userId: string;
  name: string;
  payload: Record<string, unknown>;
  timestamp: number;
  /** The verdicts stored at ingestion; null for events stored before verdicts were kept. */
  outcome: unknown;
}

/**
 * The verdict stored at ingestion for the missions with the event's name; for
 * a mission with another name, the engine's own answer (event_name_mismatch is
 * its first rule, decided by the names alone); a mission that has the event's
 * name now but was not judged then (created or re-authored since) is
 * `not_evaluated`. Null when the event has no stored verdicts.
 */
export function eventVerdicts({ ctx, input }: { ctx: Pick<ServiceContext, 'now'>; input: { catalog: Catalog; event: StoredEventFields } }): InspectorVerdict[] | null {
  const { catalog, event } = input;
  const now = ctx.now();
  if (event.outcome === null || event.outcome === undefined) return null;
  const stored = new Map((event.outcome as StoredVerdict[]).map((v) => [v.missionId, v]));
  const engineEvent = { userId: event.userId, name: event.name, payload: event.payload, timestamp: event.timestamp };
  const out: InspectorVerdict[] = [];
  for (const mission of catalog.ordered) {
    if (mission.archived) continue;
    const kept = stored.get(mission.id);
    if (kept) {
      out.push(kept as InspectorVerdict);
    } else if (mission.criteria.eventName !== event.name) {
      const { verdict } = explainEvent({ mission, campaign: null, record: null, event: engineEvent, lock: null, now });
      out.push({ missionId: mission.id, ...verdict } as InspectorVerdict);
    } else {
      out.push({ missionId: mission.id, counted: false, code: 'not_evaluated' });
    }
  }
  return out;
}
