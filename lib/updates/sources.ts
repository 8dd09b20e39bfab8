// What the update log's repair (resync.ts) and publication (publish.ts) need of
// the database and the domain, provided once at start-up by the composition
// root (lib/boot.ts, with lib/service-deps.ts's streamSources). lib/updates is
// infrastructure: it imports no domain module (eslint.config.mjs), which is
// also what ends the lib/catalog ↔ lib/updates circle (the catalog's verbs
// call afterCatalogEdit; a resync reads the catalog through this port).
import type { DbOrTx } from '@/db/client';
import type { balances, progress } from '@/db/schema';
import type { SdkUpdate } from '@/lib/contract/updates';
import { processWide } from '@/lib/process-wide';

type ProgressRow = typeof progress.$inferSelect;
type BalanceRow = typeof balances.$inferSelect;

export interface StreamSources {
  /** The process's database. */
  db(): Promise<DbOrTx>;
  /**
   * Reads the app's catalog and the user's time zone now (before any
   * transaction: the embedded database has one connection) and answers how a
   * stored progress row of that user reads on the stream at `now`, windows
   * and streaks in the user's zone: null for a mission no longer in the
   * catalog.
   */
  progressReader(appId: string, userId: string): Promise<(row: ProgressRow, now: number) => SdkUpdate | null>;
  /** A stored balance row as its stream message. */
  balanceUpdate(row: BalanceRow): SdkUpdate;
  /** The user's change number `seq` is being published: this process's cached state of the user, if older, is stale. */
  userChanged(appId: string, userId: string, seq: number): void;
}

// Process-wide: Next.js's chunks each hold a copy of this module; the one boot() runs in provides for all.
const slot = processWide('updates.sources', () => ({ sources: null as StreamSources | null }));

export function provideStreamSources(sources: StreamSources): void {
  slot.sources = sources;
}

/** The sources provided at start-up; a use before boot() is a wiring error. */
export function streamSources(): StreamSources {
  if (!slot.sources) throw new Error('lib/updates: stream sources not provided yet (lib/boot.ts provides them before serving)');
  return slot.sources;
}
