// Named, parse-once statements on PGlite (the embedded default). PGlite's own
// `query` sends every statement unnamed: Postgres (compiled to WebAssembly)
// parses and plans the text again on each call, which for the event path's
// large statements costs as much as executing them. Here each statement of
// db/prepared.ts is parsed once per PGlite instance (Parse + Describe of its
// parameter types), then every call is one batch of Bind, Describe, Execute
// and Sync in one `execProtocolStream` call, under the same mutexes as
// `PGlite.query` (so never inside another caller's transaction) and with the
// same parameter serializers and result parsers.
//
// No stale "prepared" flag: a statement counts as prepared only once its
// Parse succeeded; a failed Parse is followed by a Close of the name (a no-op
// when nothing was created); a Bind that finds no such statement (a session
// reset) forgets it and parses again, once. The flags live with the PGlite
// instance: a restarted database starts with none.
import { parse, protocol, type PGlite } from '@electric-sql/pglite';
import type { NamedRunner, Prepared } from './prepared';

/** SQLSTATE invalid_sql_statement_name: "prepared statement … does not exist". */
const NO_SUCH_STATEMENT = '26000';

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The error as PGlite's `query` throws it: the database error with the query and its parameters attached. */
function withQuery(err: unknown, statement: Prepared, values: unknown[]): unknown {
  if (err instanceof protocol.messages.DatabaseError) Object.assign(err, { query: statement.text, params: values, queryOptions: undefined });
  return err;
}

function sqlState(err: unknown): unknown {
  return (err as { code?: unknown } | null)?.code;
}

/** A runner of db/prepared.ts statements as named statements on `pg` (one per PGlite instance). */
export function pgliteNamedStatements(pg: PGlite): NamedRunner {
  const { serialize } = protocol;
  /** Statement name → its parameters' type OIDs, once its Parse succeeded on this instance. */
  const prepared = new Map<string, number[]>();

  async function prepare(statement: Prepared): Promise<number[]> {
    try {
      const described = await pg.execProtocolStream(
        concat([serialize.parse({ name: statement.name, text: statement.text }), serialize.describe({ type: 'S', name: statement.name }), serialize.sync()]),
        { syncToFs: false },
      );
      const types = parse.parseDescribeStatementResults(described);
      prepared.set(statement.name, types);
      return types;
    } catch (err) {
      // Whatever failed, leave no half-made statement behind under the name.
      await pg.execProtocolStream(concat([serialize.close({ type: 'S', name: statement.name }), serialize.sync()]), { syncToFs: false }).catch(() => undefined);
      throw err;
    }
  }

  async function execute(statement: Prepared, types: number[], values: unknown[]): Promise<Record<string, unknown>[]> {
    const params = values.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = pg.serializers[types[i]!];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await pg.execProtocolStream(
      concat([
        serialize.bind({ statement: statement.name, values: params }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    return (parse.parseResults(messages, pg.parsers)[0]?.rows ?? []) as Record<string, unknown>[];
  }

  return async (statement, values) => {
    await pg._checkReady();
    return pg._runExclusiveTransaction(() =>
      pg._runExclusiveQuery(async () => {
        try {
          const known = prepared.get(statement.name);
          if (known) {
            try {
              return await execute(statement, known, values);
            } catch (err) {
              if (sqlState(err) !== NO_SUCH_STATEMENT) throw err;
              prepared.delete(statement.name);
            }
          }
          return await execute(statement, await prepare(statement), values);
        } catch (err) {
          throw withQuery(err, statement, values);
        }
      }),
    );
  };
}
