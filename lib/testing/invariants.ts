// Test support: the service's invariants, checked on the database rows (the
// truth) straight through node-postgres, never through the service. Used by
// the fault tests and the property-based tests.
import pg from 'pg';

export interface InvariantReport {
  /** Human-readable violations; empty when every invariant holds. */
  violations: string[];
  events: number;
  grants: number;
}

/** Runs SQL with $n parameters and answers the rows. */
export type Query = <T>(text: string, params: unknown[]) => Promise<T[]>;

/**
 * SQL on the service's own database handle (PGlite on the embedded default,
 * the node-postgres pool otherwise): both drivers answer `query(text, params)` with `{ rows }`.
 */
export async function serviceQuery(): Promise<Query> {
  const { getDb } = await import('@/db/client');
  const client = (await getDb()) as unknown as { $client: { query(text: string, params: unknown[]): Promise<{ rows: unknown[] }> } };
  return async <T>(text: string, params: unknown[]) => (await client.$client.query(text, params)).rows as T[];
}

/** A direct connection to DATABASE_URL (not through any fault proxy). */
export async function truthClient(url = process.env.DATABASE_URL!): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/**
 * Checks, for one app: balance = Σ ledger per (user, currency); at most one
 * grant per (user, mission, cycle) and per grant key; currentCount ≤
 * targetCount; every idempotency key stored on at most one event; and, when
 * `acceptedKeys` is given (user → keys answered 2xx), each of them on exactly
 * one event.
 */
export async function checkInvariants(source: pg.Client | Query, appId: string, acceptedKeys?: Map<string, Set<string>>): Promise<InvariantReport> {
  const db = { query: typeof source === 'function' ? async <T>(text: string, params: unknown[]) => ({ rows: await source<T>(text, params) }) : source.query.bind(source) } as {
    query<T>(text: string, params: unknown[]): Promise<{ rows: T[] }>;
  };
  const violations: string[] = [];
  const balances = await db.query<{ user_id: string; currency: string; amount: string; ledger_sum: string | null }>(
    `select b.user_id, b.currency, b.amount::text,
            (select coalesce(sum(l.amount), 0)::text from ledger l
              where l.app_id = b.app_id and l.user_id = b.user_id and l.kind = 'currency' and l.currency = b.currency) as ledger_sum
       from balances b where b.app_id = $1`,
    [appId],
  );
  for (const b of balances.rows) {
    if (b.amount !== b.ledger_sum) violations.push(`balance ${b.user_id}/${b.currency} = ${b.amount}, ledger sum = ${b.ledger_sum}`);
  }
  const orphanLedger = await db.query<{ user_id: string; currency: string }>(
    `select distinct l.user_id, l.currency from ledger l
      where l.app_id = $1 and l.kind = 'currency'
        and not exists (select 1 from balances b where b.app_id = l.app_id and b.user_id = l.user_id and b.currency = l.currency)`,
    [appId],
  );
  for (const o of orphanLedger.rows) violations.push(`ledger rows without a balance: ${o.user_id}/${o.currency}`);

  const doubleGrants = await db.query<{ user_id: string; grant_key: string; n: string }>(
    `select user_id, grant_key, count(*)::text as n from ledger where app_id = $1 group by user_id, grant_key having count(*) > 1`,
    [appId],
  );
  for (const d of doubleGrants.rows) violations.push(`grant ${d.user_id}/${d.grant_key} paid ${d.n} times`);

  const overCount = await db.query<{ user_id: string; mission_id: string; current_count: number; target_count: number }>(
    `select user_id, mission_id, current_count, target_count from progress where app_id = $1 and current_count > target_count`,
    [appId],
  );
  for (const o of overCount.rows) violations.push(`progress ${o.user_id}/${o.mission_id}: ${o.current_count} > ${o.target_count}`);

  const doubleEvents = await db.query<{ user_id: string; idempotency_key: string; n: string }>(
    `select user_id, idempotency_key, count(*)::text as n from events
      where app_id = $1 and idempotency_key is not null group by user_id, idempotency_key having count(*) > 1`,
    [appId],
  );
  for (const d of doubleEvents.rows) violations.push(`event ${d.user_id}/${d.idempotency_key} stored ${d.n} times`);

  if (acceptedKeys) {
    for (const [userId, keys] of acceptedKeys) {
      const stored = await db.query<{ idempotency_key: string }>(
        `select idempotency_key from events where app_id = $1 and user_id = $2 and idempotency_key is not null`,
        [appId, userId],
      );
      const have = new Set(stored.rows.map((r) => r.idempotency_key));
      for (const key of keys) if (!have.has(key)) violations.push(`accepted event ${userId}/${key} not stored`);
    }
  }
  const counts = await db.query<{ events: string; grants: string }>(
    `select (select count(*) from events where app_id = $1)::text as events, (select count(*) from ledger where app_id = $1)::text as grants`,
    [appId],
  );
  return { violations, events: Number(counts.rows[0].events), grants: Number(counts.rows[0].grants) };
}
