// The staff stream's own channel: every event of a user as it is stored,
// announced after commit for whoever watches the user in the inspector
// (GET /api/admin/apps/:appId/users/:userId/updates). Players never receive
// it: it is a bus channel beside the user's update log, not in it, so it takes
// no log id, no place in the 1,000-message log and no part in the change
// order; a staff stream sends what it hears live and replays nothing (the
// inspector reads the stored events when it (re)connects).
//
// What is published is the stored row's own verdicts (the missions with the
// event's name, as judged at ingestion); the staff stream completes them
// against the current catalog as the inspection does
// (lib/services/events/describe-recorded-event.ts), so a publish costs one
// small bus message whoever watches.
import type { Bus } from '@/lib/bus/types';
import { kvKey } from '@/lib/kv/keys';
import { isCircuitOpen } from '@/lib/kv/breaker';
import { logError } from '@/lib/log';
import { metrics } from '@/lib/metrics';

export const staffChannel = (appId: string, userId: string) => kvKey('staff-updates', appId, userId);

/** One stored event as the bus carries it: the row's fields, `outcome` as stored (null before verdicts were kept). */
export interface StoredEventMessage {
  kind: 'event.recorded';
  id: string;
  userId: string;
  name: string;
  payload: Record<string, unknown>;
  timestamp: number;
  receivedAt: number;
  source: string;
  outcome: Array<{ missionId: string; counted: boolean } & Record<string, unknown>> | null;
}

/** Publishes a committed event on its user's staff channel. Never throws: a lost announcement costs a live line, not the event. */
export async function announceStoredEvent(bus: Bus, appId: string, message: StoredEventMessage): Promise<void> {
  try {
    await bus.publish(staffChannel(appId, message.userId), JSON.stringify(message));
  } catch (err) {
    metrics().busErrors.inc({ operation: 'publish' });
    if (!isCircuitOpen(err)) logError('staff announce failed', err, { appId, userId: message.userId, eventId: message.id });
  }
}

/** The message back from the bus; null when it is not one. */
export function decodeStoredEvent(text: string): StoredEventMessage | null {
  try {
    const value = JSON.parse(text) as Partial<StoredEventMessage> | null;
    if (value === null || typeof value !== 'object' || value.kind !== 'event.recorded' || typeof value.id !== 'string' || typeof value.name !== 'string') return null;
    return value as StoredEventMessage;
  } catch {
    return null;
  }
}
