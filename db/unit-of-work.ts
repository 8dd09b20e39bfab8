// One database transaction that several domain verbs can share (a webhook
// delivery records many events in one), with the steps that must wait for it:
// `beforeCommit` steps run last inside the transaction, while its locks are
// held; `afterCommit` steps run once it has committed, side by side (stream
// publication, which orders itself by the user's sequence number, analytics,
// caches). Neither
// runs when the transaction rolls back, so nothing is announced or cached for
// a change that did not happen.
import { logError } from '@/lib/log';
import { getDb, type Tx } from './client';

export interface UnitOfWork {
  readonly tx: Tx;
  /** Queued in order; runs after the work, before commit. Failures are logged, never fatal. */
  beforeCommit(step: () => Promise<void>): void;
  /** Runs after commit, side by side with the other such steps (no order among them). Failures are logged, never fatal. */
  afterCommit(step: () => Promise<void>): void;
}

async function runSteps(steps: Array<() => Promise<void>>, label: string): Promise<void> {
  for (const step of steps) {
    try {
      await step();
    } catch (err) {
      logError(`${label} step failed`, err);
    }
  }
}

/**
 * Runs `work` in `outer` when given (the caller owns the transaction and its
 * steps), else in a new transaction that it commits, running the queued steps.
 */
export async function inUnitOfWork<T>(outer: UnitOfWork | undefined, work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  if (outer) return work(outer);
  const before: Array<() => Promise<void>> = [];
  const after: Array<() => Promise<void>> = [];
  const db = await getDb();
  const result = await db.transaction(async (tx) => {
    const uow: UnitOfWork = {
      tx,
      beforeCommit: (step) => void before.push(step),
      afterCommit: (step) => void after.push(step),
    };
    const value = await work(uow);
    await runSteps(before, 'before-commit');
    return value;
  });
  // Side by side: publication, caches and analytics are independent round trips.
  await Promise.all(after.map((step) => runSteps([step], 'after-commit')));
  return result;
}
