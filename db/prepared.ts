// The hot path's statements (an event's read and write, a claim) as fixed SQL
// text with numbered parameters, sent straight to the driver under their
// drizzle session: no per-request query building, and on node-postgres as
// named prepared statements (parsed and planned once per connection, then
// only bound and executed), and on PGlite through a runner registered for
// its instance (db/pglite-named.ts: named statements too). Inside a
// transaction they run on its connection (on PGlite as unnamed statements,
// through the transaction's `query`).
import type { DbOrTx } from './client';

export interface Prepared {
  /** Unique per text (node-postgres refuses one name with two texts on a connection). */
  name: string;
  text: string;
  /**
   * Runs on the database's pipelined connections when it has them (node-postgres:
   * db/pipeline-lane.ts), for a statement that runs alone in autocommit; inside
   * a transaction, and on other drivers, as any statement.
   */
  pipelined?: boolean;
}

interface DriverClient {
  query(textOrConfig: unknown, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** node-postgres pools and clients take a query config with `name`; PGlite and Neon take (text, values). */
function isNodePostgres(client: object): boolean {
  const name = client.constructor?.name ?? '';
  return name === 'BoundedClient' || name === 'Pool' || name === 'BoundPool' || 'release' in client || 'totalCount' in client;
}

const kinds = new WeakMap<object, boolean>();

/** Runs a statement as a named one on a driver client that has no `name` option (PGlite). */
export type NamedRunner = (statement: Prepared, values: unknown[]) => Promise<Record<string, unknown>[]>;

const runners = new WeakMap<object, NamedRunner>();

/** Runs a statement on pipelined connections; null (or a promise of null) when it was not sent there (run it as any other). */
export type PipelinedRunner = (statement: Prepared, values: unknown[]) => Promise<Record<string, unknown>[] | null> | null;

const pipelinedRunners = new WeakMap<object, PipelinedRunner>();

/** Statements marked `pipelined` run on `client` (a pool under drizzle) go through `run` first. */
export function registerPipelinedRunner(client: object, run: PipelinedRunner): void {
  pipelinedRunners.set(client, run);
}

/** Statements run on `client` (the driver's client under drizzle) go through `run`. */
export function registerNamedRunner(client: object, run: NamedRunner): void {
  runners.set(client, run);
}

/** Runs a prepared statement on the database or the open transaction; answers its rows. */
export async function runPrepared(db: DbOrTx, statement: Prepared, values: unknown[]): Promise<Record<string, unknown>[]> {
  const client = (db as unknown as { session?: { client?: DriverClient } }).session?.client;
  if (!client) throw new Error('runPrepared: no driver client under this database handle');
  const runner = runners.get(client);
  if (runner) return runner(statement, values);
  if (statement.pipelined) {
    const sent = pipelinedRunners.get(client)?.(statement, values);
    const rows = sent ? await sent : null;
    if (rows) return rows;
  }
  let named = kinds.get(client);
  if (named === undefined) {
    named = isNodePostgres(client);
    kinds.set(client, named);
  }
  const result = named ? await client.query({ name: statement.name, text: statement.text, values }) : await client.query(statement.text, values);
  return result.rows;
}

/** A PostgreSQL text[] literal of `values` (each quoted), for a `$n::text[]` parameter under every driver. */
export function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}
