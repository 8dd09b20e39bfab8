// Test support: what the database holds for one app (every table with an
// app_id), and the rows a request body could have created by its own ids, so
// a test can prove a refused request wrote nothing. Scoped, not global: other
// suites write to the same PostgreSQL at the same time.
import { sql } from 'drizzle-orm';
import { getDb } from '@/db/client';

const APP_TABLES = [
  'missions',
  'campaigns',
  'events',
  'idempotency_keys',
  'progress',
  'balances',
  'ledger',
  'revoked_tokens',
  'user_revocations',
  'analytics_rollups',
  'audit_log',
] as const;

/** Row counts of every table with an app_id, for these apps, plus the apps rows themselves. */
export async function appRowCounts(appIds: string[]): Promise<Record<string, number>> {
  const db = await getDb();
  const ids = sql.join(
    appIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const parts = [
    ...APP_TABLES.map((t) => sql`select ${t} as t, count(*)::int as n from ${sql.identifier(t)} where app_id in (${ids})`),
    sql`select 'apps' as t, count(*)::int as n from apps where id in (${ids})`,
  ];
  const result = (await db.execute(sql.join(parts, sql` union all `))) as unknown as { rows: { t: string; n: number | string }[] };
  return Object.fromEntries(result.rows.map((r) => [r.t, Number(r.n)]));
}

/** Apps or staff rows named by ids and e-mail addresses (strings found anywhere in a body). */
export async function rowsNamedBy(strings: string[]): Promise<number> {
  if (strings.length === 0) return 0;
  const db = await getDb();
  const list = sql.join(
    strings.map((s) => sql`${s}`),
    sql`, `,
  );
  const result = (await db.execute(
    sql`select (select count(*) from apps where id in (${list}))::int + (select count(*) from staff where email in (${list}))::int as n`,
  )) as unknown as { rows: { n: number | string }[] };
  return Number(result.rows[0].n);
}
