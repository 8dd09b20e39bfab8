// An event's id: `evt_` and a UUIDv7 whose first 48 bits are the event's
// received_at (Unix ms). The events table is partitioned by received_at, and
// each partition checks that such an id carries its row's received_at
// (db/event-partitions.ts): one id, one partition, one primary key.
import { randomUUID } from 'node:crypto';

export function newEventId(receivedAt: number): string {
  const time = Math.floor(receivedAt).toString(16).padStart(12, '0');
  // randomUUID: 8-4-4-4-12 with the version at [14]; its 74 random bits after the version stay.
  return `evt_${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}
