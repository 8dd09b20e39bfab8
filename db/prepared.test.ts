// runPrepared on a real database: the embedded PGlite (named, parse-once
// statements through db/pglite-named.ts) and, when DATABASE_URL is set,
// PostgreSQL through node-postgres. Same rows and value types as the
// drivers' own query, errors with their SQLSTATE and table, and no stale
// "prepared" flag after a failed Parse or a session reset.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@/lib/config';
import { seedDataDir } from '@/lib/testing/pglite-template';
import { openDatabase } from './client';
import { runPrepared, textArray, type Prepared } from './prepared';

const SECRET = 'a-jwt-secret-that-is-at-least-32-bytes-long';
type Handle = Awaited<ReturnType<typeof openDatabase>>;

/** A data directory holding a copy of the run's migrated template (what runPrepared needs is a working database, not a fresh initdb: 3-5 s, 16 s at load average 10). */
function seededDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'questline-prepared-'));
  seedDataDir(dir, { NODE_ENV: 'test' }); // not process.env: the embedded backend is seeded on the PostgreSQL pass too
  return dir;
}

const backends: Array<[string, () => Promise<Handle>]> = [['embedded PGlite', () => openDatabase(loadConfig({ QUESTLINE_DATA_DIR: seededDir(), JWT_SECRET: SECRET }))]];
if (process.env.DATABASE_URL) {
  backends.push([
    'PostgreSQL (node-postgres)',
    () => openDatabase(loadConfig({ DATABASE_URL: process.env.DATABASE_URL, JWT_SECRET: SECRET, QUESTLINE_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'questline-prepared-')) })),
  ]);
}

// One run's own names and table, so that runs sharing a PostgreSQL database do not meet.
const run = `${process.pid}_${Date.now().toString(36)}`;
const table = `prepared_test_${run}`;

describe.each(backends)('runPrepared on %s', (label, open) => {
  let handle: Handle;

  beforeAll(async () => {
    handle = await open();
    await handle.db.execute(sql.raw(`create table ${table} (id text primary key, n bigint not null, doc jsonb, tags text[])`));
  });

  afterAll(async () => {
    if (!handle) return;
    await handle.db.execute(sql.raw(`drop table if exists ${table}`));
    await handle.close();
  });

  const insert: Prepared = {
    name: `ql_test_insert_${run}`,
    text: `insert into ${table} (id, n, doc, tags) values ($1::text, $2::bigint, $3::jsonb, $4::text[]) returning id, n, doc, tags`,
  };
  const select: Prepared = {
    name: `ql_test_select_${run}`,
    text: `select id, n::text as n_text, n::int as n_int, doc, (doc->>'a')::int as a from ${table} where id = any($1::text[]) order by id`,
  };

  it('answers the rows with the driver types (json parsed, int numbers), the same statement many times', async () => {
    const [row] = await runPrepared(handle.db, insert, ['a', 7, JSON.stringify({ a: 1, s: 'x"y' }), textArray(['p', 'q"r'])]);
    expect(row).toMatchObject({ id: 'a', doc: { a: 1, s: 'x"y' }, tags: ['p', 'q"r'] });
    await runPrepared(handle.db, insert, ['b', 8, null, null]);
    for (let i = 0; i < 5; i++) {
      const rows = await runPrepared(handle.db, select, [textArray(['a', 'b', 'none'])]);
      expect(rows).toEqual([
        { id: 'a', n_text: '7', n_int: 7, doc: { a: 1, s: 'x"y' }, a: 1 },
        { id: 'b', n_text: '8', n_int: 8, doc: null, a: null },
      ]);
    }
    expect(await runPrepared(handle.db, select, [textArray([])])).toEqual([]);
  });

  it('fails a statement with the SQLSTATE and table of the error, and the statement still runs afterwards', async () => {
    const err = await runPrepared(handle.db, insert, ['a', 1, null, null]).then(
      () => null,
      (e: unknown) => e as { code?: string; table?: string; constraint?: string },
    );
    expect(err?.code).toBe('23505');
    expect(err?.table ?? err?.constraint).toContain(table);
    const [row] = await runPrepared(handle.db, insert, ['c', 9, null, null]);
    expect(row).toMatchObject({ id: 'c' });
  });

  it('leaves no stale "prepared" flag when the text does not parse, or names a table that is not there yet', async () => {
    const later = `prepared_later_${run}`;
    const statement: Prepared = { name: `ql_test_later_${run}`, text: `select count(*)::int as n from ${later}` };
    for (let i = 0; i < 2; i++) {
      await expect(runPrepared(handle.db, statement, [])).rejects.toMatchObject({ code: '42P01' });
    }
    await handle.db.execute(sql.raw(`create table ${later} (id int)`));
    try {
      expect(await runPrepared(handle.db, statement, [])).toEqual([{ n: 0 }]);
    } finally {
      await handle.db.execute(sql.raw(`drop table ${later}`));
    }
    const broken: Prepared = { name: `ql_test_broken_${run}`, text: 'selec 1' };
    for (let i = 0; i < 2; i++) await expect(runPrepared(handle.db, broken, [])).rejects.toMatchObject({ code: '42601' });
  });

  it('runs inside a transaction on its connection, and rolls back with it', async () => {
    await handle.db
      .transaction(async (tx) => {
        await runPrepared(tx, insert, ['in-tx', 1, null, null]);
        expect(await runPrepared(tx, select, [textArray(['in-tx'])])).toHaveLength(1);
        tx.rollback();
      })
      .catch(() => undefined);
    expect(await runPrepared(handle.db, select, [textArray(['in-tx'])])).toEqual([]);
  });

  it('keeps each caller its own answer when calls and a transaction run concurrently', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `k${i}`);
    const writes = ids.map((id, i) => runPrepared(handle.db, insert, [id, i, JSON.stringify({ a: i }), null]));
    const tx = handle.db.transaction(async (t) => {
      await runPrepared(t, insert, ['tx-row', 100, null, null]);
      return runPrepared(t, select, [textArray(['tx-row'])]);
    });
    const answers = await Promise.all(writes);
    answers.forEach(([row], i) => expect(row).toMatchObject({ id: ids[i], doc: { a: i } }));
    expect(await tx).toEqual([{ id: 'tx-row', n_text: '100', n_int: 100, doc: null, a: null }]);
    const reads = await Promise.all(ids.map((id) => runPrepared(handle.db, select, [textArray([id])])));
    reads.forEach(([row], i) => expect(row).toMatchObject({ id: ids[i], a: i }));
  });

  it.runIf(label === 'embedded PGlite')('keeps each statement prepared under its name, and parses again after the session forgot it (DEALLOCATE ALL)', async () => {
    expect(await runPrepared(handle.db, select, [textArray(['a'])])).toHaveLength(1);
    const names = async () => {
      const result = await handle.db.execute(sql`select name from pg_prepared_statements where name like ${`ql_test_%_${run}`} `);
      return ((result as unknown as { rows: { name: string }[] }).rows ?? []).map((r) => r.name).sort();
    };
    // The statement parsed once its table existed is there; the one that never parsed is not.
    expect(await names()).toEqual([insert.name, `ql_test_later_${run}`, select.name].sort());
    await handle.db.execute(sql`deallocate all`);
    expect(await runPrepared(handle.db, select, [textArray(['a'])])).toHaveLength(1);
    // Parsed once more, then named again: no "already exists" on the next calls.
    expect(await runPrepared(handle.db, select, [textArray(['a', 'b'])])).toHaveLength(2);
    expect(await names()).toEqual([select.name]);
  });
  it.runIf(label === 'PostgreSQL (node-postgres)')(
    'runs a `pipelined` statement on the pipelined connections, not the pool’s, and inside a transaction on the transaction’s',
    async () => {
      const pid: Prepared = { name: `ql_test_pid_${run}`, text: 'select pg_backend_pid() as pid' };
      const piped: Prepared = { ...pid, name: `ql_test_pid_piped_${run}`, pipelined: true };
      const pids = async (statement: Prepared) =>
        new Set((await Promise.all(Array.from({ length: 12 }, () => runPrepared(handle.db, statement, [])))).map(([row]) => row!.pid));
      const [pooled, pipelined] = [await pids(pid), await pids(piped)];
      expect([...pipelined].some((p) => pooled.has(p))).toBe(false);
      expect(pipelined.size).toBeLessThanOrEqual(4);
      const inTx = await handle.db.transaction(async (tx) => {
        const [own] = await runPrepared(tx, pid, []);
        const [viaLane] = await runPrepared(tx, piped, []);
        return { own: own!.pid, viaLane: viaLane!.pid };
      });
      expect(inTx.viaLane).toBe(inTx.own);
    },
  );
});
