// A few pipelined PostgreSQL connections beside the pool, for the one hot
// statement that runs alone in autocommit (a claim). On a pooled connection
// each statement is one socket write and waits for a free connection; here
// the statements issued until the next `setImmediate` leave in one write
// (the socket is corked meanwhile), and a connection carries several at once.
// Each keeps its own Sync, so its own implicit transaction: a statement that
// fails (a key already taken, a budget exceeded) fails alone, as on the pool.
//
// Bounds, so that a statement held on a lock never holds up many others
// queued behind it on the same connection: at most `maxInFlight` statements
// on a connection; past that, on every connection, the caller uses the pool.
// A reply that does not come within the query bound destroys the connection
// (node-postgres does this in pipeline mode): every statement still on it
// fails with the timeout (503; whether each committed is unknown, as for a
// lone statement whose reply was lost). A lost connection fails the
// statements on it the same way and is replaced on the next use.
/** A named statement (db/prepared.ts's Prepared; not imported, so the two files make no circle with db/client.ts). */
interface Statement {
  name: string;
  text: string;
}

interface LaneClient {
  connect(): Promise<void>;
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
  on(event: 'error' | 'end', listener: (...args: unknown[]) => void): unknown;
  end(): Promise<void>;
  connection: { stream: { cork?: () => void; uncork?: () => void; destroyed?: boolean } };
}

interface Slot {
  /** The connected client, or its connection under way; null: none (made on the next use). */
  client: Promise<LaneClient> | null;
  /** A connection was made for this slot before (the next one is a reconnect). */
  opened: boolean;
  inFlight: number;
  corked: boolean;
}

export interface PipelineLane {
  /** Runs the statement on the least busy pipelined connection; null when every one already carries `maxInFlight` (use the pool). */
  tryRun(statement: Statement, values: unknown[]): Promise<Record<string, unknown>[]> | null;
  /** Statements run here and sent to the pool instead, since the process started (tests, profiling). */
  stats: { run: number; overflow: number; reconnects: number };
  end(): Promise<void>;
}

export function pipelineLane(options: { size: number; maxInFlight: number; makeClient: () => LaneClient }): PipelineLane {
  const slots: Slot[] = Array.from({ length: options.size }, () => ({ client: null, opened: false, inFlight: 0, corked: false }));
  const stats = { run: 0, overflow: 0, reconnects: 0 };
  let ended = false;

  const open = (slot: Slot): Promise<LaneClient> => {
    const client = options.makeClient();
    const made = client.connect().then(() => client);
    const drop = () => {
      if (slot.client === made) slot.client = null;
    };
    client.on('error', drop);
    client.on('end', drop);
    // A connection that could not be made is not kept: the next statement tries again.
    made.catch(drop);
    if (slot.opened) stats.reconnects++;
    slot.opened = true;
    slot.client = made;
    return made;
  };

  const send = async (slot: Slot, statement: Statement, values: unknown[]): Promise<Record<string, unknown>[]> => {
    slot.inFlight++;
    try {
      const current = slot.client ?? open(slot);
      let client = await current;
      // Destroyed by a query past its bound, before the socket's close reached the client's 'end'.
      if (client.connection.stream.destroyed) {
        if (slot.client === current) slot.client = null;
        client = await (slot.client ?? open(slot));
      }
      const stream = client.connection.stream;
      // What is issued on this connection until the next turn of the event loop leaves in one write.
      if (!slot.corked && stream.cork && stream.uncork) {
        slot.corked = true;
        stream.cork();
        setImmediate(() => {
          slot.corked = false;
          stream.uncork!();
        });
      }
      const result = await client.query({ name: statement.name, text: statement.text, values });
      return result.rows;
    } finally {
      slot.inFlight--;
    }
  };

  return {
    stats,
    tryRun(statement, values) {
      if (ended) return null;
      let best: Slot | null = null;
      for (const slot of slots) if (slot.inFlight < options.maxInFlight && (best === null || slot.inFlight < best.inFlight)) best = slot;
      if (best === null) {
        stats.overflow++;
        return null;
      }
      stats.run++;
      return send(best, statement, values);
    },
    async end() {
      ended = true;
      await Promise.all(
        slots.map(async (slot) => {
          const client = slot.client;
          slot.client = null;
          if (client) await client.then((c) => c.end()).catch(() => undefined);
        }),
      );
    },
  };
}
