// Readiness of the database (GET /api/ready): it answers, and every migration
// this build ships is applied.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../context';

/** The `when` of the newest migration this build ships (db/migrations/meta/_journal.json). */
function newestMigration(): number {
  const journal = JSON.parse(readFileSync(path.join(process.cwd(), 'db', 'migrations', 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((e) => e.when));
}

export async function checkDatabase({ ctx }: { ctx: ServiceContext }): Promise<'ok' | 'migrations pending'> {
  const result = (await ctx.deps.db.execute(sql`select max(created_at) as last from drizzle.__drizzle_migrations`)) as unknown as {
    rows: { last: string | number | null }[];
  };
  const last = Number(result.rows[0]?.last ?? 0);
  return last >= newestMigration() ? 'ok' : 'migrations pending';
}
