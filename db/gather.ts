// The gathering the user-state reads (lib/progress/user-state.ts) and the
// events' group commit (lib/events/write-batch.ts) use: calls issued before the next `setImmediate` (and,
// while `maxInFlight` batches are out on the same database, until one comes
// back) leave together as one batch. `take` picks the next batch from the
// waiting calls (in order; the ones it leaves keep their place; an empty
// batch means they wait for one in flight); `run` sends it and settles every
// call of it.
import type { DbOrTx } from '@/db/client';

export interface Pending<In, Out> {
  input: In;
  resolve(out: Out): void;
  reject(err: unknown): void;
}

interface State<In, Out> {
  waiting: Pending<In, Out>[];
  inFlight: number;
  scheduled: boolean;
}

export function gatherer<In, Out>(opts: {
  maxInFlight: number;
  /** The next batch and the calls left waiting (of the calls made on `db`). */
  take(waiting: Pending<In, Out>[], db: DbOrTx): { batch: Pending<In, Out>[]; rest: Pending<In, Out>[] };
  /** Sends the batch; resolves or rejects every call of it (and never rejects itself). */
  run(db: DbOrTx, batch: Pending<In, Out>[]): Promise<void>;
}): (db: DbOrTx, input: In) => Promise<Out> {
  const states = new WeakMap<object, State<In, Out>>();

  function flush(db: DbOrTx, s: State<In, Out>): void {
    s.scheduled = false;
    while (s.waiting.length > 0 && s.inFlight < opts.maxInFlight) {
      const { batch, rest } = opts.take(s.waiting, db);
      s.waiting = rest;
      // Everything waiting must wait for a batch in flight (take's choice): the next return flushes again.
      if (batch.length === 0) break;
      s.inFlight++;
      void opts.run(db, batch).finally(() => {
        s.inFlight--;
        if (s.waiting.length > 0) flush(db, s);
      });
    }
  }

  return (db, input) => {
    let s = states.get(db);
    if (!s) states.set(db, (s = { waiting: [], inFlight: 0, scheduled: false }));
    const state = s;
    return new Promise<Out>((resolve, reject) => {
      state.waiting.push({ input, resolve, reject });
      if (!state.scheduled && state.inFlight < opts.maxInFlight) {
        state.scheduled = true;
        setImmediate(() => flush(db, state));
      }
    });
  };
}

/**
 * A gathered read: the waiting calls in order, at most `maxBatch` a batch,
 * `read` answering one output per input in the inputs' order; an error
 * rejects every call of its batch.
 */
export function batchedReads<In, Out>(opts: {
  maxInFlight: number;
  maxBatch: number;
  read(db: DbOrTx, inputs: In[]): Promise<Out[]>;
}): (db: DbOrTx, input: In) => Promise<Out> {
  return gatherer<In, Out>({
    maxInFlight: opts.maxInFlight,
    take: (waiting) => ({ batch: waiting.slice(0, opts.maxBatch), rest: waiting.slice(opts.maxBatch) }),
    run: async (db, batch) => {
      try {
        const outs = await opts.read(
          db,
          batch.map((p) => p.input),
        );
        batch.forEach((p, i) => p.resolve(outs[i]!));
      } catch (err) {
        batch.forEach((p) => p.reject(err));
      }
    },
  });
}
