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
// The server's own bound (db/client.ts sets `statement_timeout` on these
// connections, a little under the query bound) fails a statement that waits
// too long alone, so the ones behind it run. A reply that does not come
// within the query bound destroys the connection (node-postgres does this in
// pipeline mode): every statement still on it fails with the timeout (503;
// whether each committed is unknown, as for a lone statement whose reply was
// lost). A lost connection fails the statements on it the same way and is
// replaced on the next use.
//
// Nothing written, nothing lost: when a connection cannot be made (refused,
// the server's connection limit) or its client refuses the statement before
// sending it, the statement goes to the pool (the answer null); when the
// attempt ran out its time bound, the statement fails as unavailable (503)
// instead of waiting as long again on the pool. Either way that connection
// rests for `restMs` before it is tried again.
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
  connection: { stream: { cork?: () => void; uncork?: () => void; destroy?: () => void; destroyed?: boolean } };
}

interface Slot {
  /** The connected client, or its connection under way; null: none (made on the next use). */
  client: Promise<LaneClient> | null;
  /** A connection was made for this slot before (the next one made is a reconnect). */
  opened: boolean;
  /** Not used before this time (ms since the epoch): its last connection attempt failed. */
  restUntil: number;
  inFlight: number;
  corked: boolean;
}

/** Rows, or null: not sent (use the pool). */
type Outcome = Promise<Record<string, unknown>[] | null>;

export interface PipelineLane {
  /**
   * Runs the statement on the least busy pipelined connection. Null, or a
   * promise of null, when it was not sent: every connection already carries
   * `maxInFlight`, is resting after a failed connection attempt, or could not
   * be used (run it on the pool).
   */
  tryRun(statement: Statement, values: unknown[]): Outcome | null;
  /**
   * Since the process started: statements run here; statements sent to the
   * pool instead (full, resting or not connectable); connections made again
   * after one was lost, timed out or could not be made.
   */
  stats: { run: number; overflow: number; reconnects: number };
  /** Connections open or being opened now (at most `size`). */
  connections(): number;
  end(): Promise<void>;
}

/** node-postgres refuses a statement on a client that errored or is ending before writing anything. */
const NOT_SENT = /is not queryable/;
/** ...and of these, the client that errored (the one that is ending finishes what it sent: left alone). */
const BROKEN = /connection error/;
/** node-postgres's connect past connectionTimeoutMillis. */
const CONNECT_TIMED_OUT = /timeout expired/;

export function pipelineLane(options: { size: number; maxInFlight: number; makeClient: () => LaneClient; restMs?: number }): PipelineLane {
  const restMs = options.restMs ?? 1000;
  const slots: Slot[] = Array.from({ length: options.size }, () => ({ client: null, opened: false, restUntil: 0, inFlight: 0, corked: false }));
  const stats = { run: 0, overflow: 0, reconnects: 0 };
  let ended = false;
  /** Each client's drop: forgets it (if its slot still holds it) and closes its socket. */
  const drops = new WeakMap<LaneClient, () => void>();

  const open = (slot: Slot): Promise<LaneClient> => {
    if (ended) return Promise.reject(new Error('pipelined connections ended'));
    const client = options.makeClient();
    const made = client.connect().then(() => client);
    // Forgotten and closed (a protocol error can leave the socket open).
    const drop = () => {
      if (slot.client === made) slot.client = null;
      client.connection.stream.destroy?.();
    };
    drops.set(client, drop);
    client.on('error', drop);
    client.on('end', drop);
    // Registered before the callers' awaits, so it runs first: a failed attempt rests the slot before they fall back.
    made.then(
      () => {
        if (slot.opened) stats.reconnects++;
        slot.opened = true;
      },
      () => {
        drop();
        slot.restUntil = Date.now() + restMs;
      },
    );
    slot.client = made;
    return made;
  };

  /** The slot's connected client, made or made again as needed; throws when none can be had (nothing was sent). */
  const connected = async (slot: Slot): Promise<LaneClient> => {
    const current = slot.client ?? open(slot);
    const client = await current;
    if (!client.connection.stream.destroyed) return client;
    // Destroyed by a query past its bound, before the socket's close reached the client's 'end'.
    if (slot.client === current) slot.client = null;
    return slot.client ?? open(slot);
  };

  const send = async (slot: Slot, statement: Statement, values: unknown[]): Outcome => {
    slot.inFlight++;
    try {
      let client: LaneClient;
      try {
        client = await connected(slot);
      } catch (err) {
        // A connection attempt that ran out its bound already cost the caller that long: the pool
        // would likely wait as long again, so it fails now as unavailable (503), nothing written.
        if (CONNECT_TIMED_OUT.test((err as Error)?.message ?? '')) {
          throw new Error('Connection terminated due to connection timeout (pipelined connection)', { cause: err });
        }
        stats.overflow++;
        return null;
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
      try {
        const result = await client.query({ name: statement.name, text: statement.text, values });
        stats.run++;
        return result.rows;
      } catch (err) {
        const message = (err as Error)?.message ?? '';
        if (!NOT_SENT.test(message)) {
          stats.run++;
          throw err;
        }
        if (BROKEN.test(message)) drops.get(client)?.();
        stats.overflow++;
        return null;
      }
    } finally {
      slot.inFlight--;
    }
  };

  return {
    stats,
    connections: () => slots.filter((slot) => slot.client !== null).length,
    tryRun(statement, values) {
      if (ended) return null;
      const now = Date.now();
      let best: Slot | null = null;
      for (const slot of slots) {
        if (slot.inFlight >= options.maxInFlight || slot.restUntil > now) continue;
        if (best === null || slot.inFlight < best.inFlight) best = slot;
      }
      if (best === null) {
        stats.overflow++;
        return null;
      }
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
