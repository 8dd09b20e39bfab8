// Test support: what the database holds for one app (every table with an
// app_id), and the rows a request body could have created by its own ids, so
// a test can prove a refused request wrote nothing. Scoped, not global: other
// suites write to the same PostgreSQL at the same time.
import { sql } from 'drizzle-orm';
import { getDb } from '@/db/client';

/** Every table with an app_id column, read from the database (so a new table is covered without editing this list). */
async function appTables(): Promise<string[]> {
  const db = await getDb();
  const result = (await db.execute(
    sql`select table_name as t from information_schema.columns where column_name = 'app_id' and table_schema = current_schema() order by table_name`,
  )) as unknown as { rows: { t: string }[] };
  return result.rows.map((r) => r.t);
}

/** Row counts of every table with an app_id, for these apps, plus the apps rows themselves. */
export async function appRowCounts(appIds: string[]): Promise<Record<string, number>> {
  const db = await getDb();
  const ids = sql.join(
    appIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const parts = [
    ...(await appTables()).map((t) => sql`select ${t} as t, count(*)::int as n from ${sql.identifier(t)} where app_id in (${ids})`),
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
