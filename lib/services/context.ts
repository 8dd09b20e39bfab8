// What every domain verb is given: whose app, who acts, the clock, the request
// id and the dependencies (database or the open transaction, key-value store,
// bus, logger, the ordered stream publisher). Built once per request by the
// HTTP layer (lib/http/service-context.ts) or by a test; a verb never reaches
// for a global getter. withTransaction runs a verb's writes in one transaction,
// reusing the caller's when there is one, so several verbs can share it.
import type { Logger } from 'pino';
import type { Db, DbOrTx } from '@/db/client';
import type { UnitOfWork } from '@/db/unit-of-work';
import type { Bus } from '@/lib/bus/types';
import type { Catalog } from '@/lib/catalog/catalog';
import type { StaffRole } from '@/lib/contract/staff';
import type { SdkUpdate } from '@/lib/contract/updates';
import type { KV } from '@/lib/kv/types';

/** Who acts: a staff member (by e-mail), the admin API key, a player (token subject) or the service itself. */
export interface Actor {
  kind: 'staff' | 'admin-key' | 'user' | 'system';
  id: string;
  /** The staff role (the admin key acts as admin); null for players and the system. */
  role: StaffRole | null;
}

interface ServiceDeps {
  /** The database, or the open transaction inside withTransaction. */
  db: DbOrTx;
  kv: KV;
  bus: Bus;
  log: Logger;
  /** The app's catalog (missions, campaigns), read before any transaction (the embedded database has one connection). */
  catalog(appId: string): Promise<Catalog>;
  /** Publishes a committed change of the user, number `seq`, on the user's stream in change order (lib/updates/publish.ts). */
  publish(appId: string, userId: string, seq: number, updates: SdkUpdate[]): Promise<void>;
  /** Drops the user's stream log (the messages a resuming stream would replay): a data erasure. */
  eraseStream(appId: string, userId: string): Promise<void>;
  /**
   * After a committed change of the app's live catalog: every instance drops its in-memory copy, and the
   * streams of the holders of `missionIds` (count, window or archived changed) get the new reading.
   */
  catalogChanged(appId: string, missionIds: string[], editStartedAt: number): Promise<void>;
}

export interface ServiceContext {
  appId: string;
  actor: Actor;
  now(): number;
  requestId: string;
  deps: ServiceDeps;
  /** Set inside withTransaction: the transaction and its after-commit steps. */
  uow?: UnitOfWork;
  /**
   * The catalog this call works on, when the caller holds it: the live one
   * read before a transaction opened (the embedded database has one
   * connection, so a verb joining a unit of work cannot read it), or a
   * draft's (the preview as a player). Absent: the verb reads deps.catalog.
   */
  catalog?: Catalog;
}

/** A context inside a transaction: deps.db is the transaction. */
export type TxContext = ServiceContext & { uow: UnitOfWork };

/** The actor as the audit log and the ledger name it: `staff:<email>`, `admin-api-key`, `user:<id>` or `system`. */
export function actorLabel(actor: Actor): string {
  switch (actor.kind) {
    case 'staff':
      return `staff:${actor.id}`;
    case 'admin-key':
      return 'admin-api-key';
    case 'user':
      return `user:${actor.id}`;
    case 'system':
      return 'system';
  }
}

async function runSteps(steps: Array<() => Promise<void>>, ctx: ServiceContext, label: string): Promise<void> {
  for (const step of steps) {
    try {
      await step();
    } catch (err) {
      ctx.deps.log.error({ requestId: ctx.requestId, error: err instanceof Error ? err.message : String(err) }, `${label} step failed`);
    }
  }
}

/**
 * Runs `fn` in the context's transaction when it has one (the caller commits),
 * else in a new one on deps.db: its before-commit steps run last inside it,
 * its after-commit steps (stream publication, caches) only once it committed,
 * side by side. Nothing is announced for a change that rolled back.
 */
export async function withTransaction<T>(ctx: ServiceContext, fn: (tx: TxContext) => Promise<T>): Promise<T> {
  if (ctx.uow) return fn(ctx as TxContext);
  const before: Array<() => Promise<void>> = [];
  const after: Array<() => Promise<void>> = [];
  const result = await (ctx.deps.db as Db).transaction(async (tx) => {
    const uow: UnitOfWork = {
      tx,
      beforeCommit: (step) => void before.push(step),
      afterCommit: (step) => void after.push(step),
    };
    const value = await fn({ ...ctx, uow, deps: { ...ctx.deps, db: tx } });
    await runSteps(before, ctx, 'before-commit');
    return value;
  });
  await Promise.all(after.map((step) => runSteps([step], ctx, 'after-commit')));
  return result;
}
