-- Issue 43: events partitioned by day of received_at. The primary key on "id"
-- goes from the table to each partition; the table itself is turned into the
-- partitioned one at start by db/event-partitions.ts (upgradeEventsTable), not
-- here: an existing table's range check is validated while ingestion goes on,
-- which a migration (one transaction holding its locks) cannot do.
COMMENT ON COLUMN "events"."id" IS 'evt_ + UUIDv7 of received_at (lib/events/event-id.ts); unique per partition (db/event-partitions.ts)';
