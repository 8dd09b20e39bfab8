// One database transaction that several domain verbs can share (a webhook
// delivery records many events in one), with the steps that must wait for it:
// `beforeCommit` steps run last inside the transaction, while its locks are
// held (stream publication, so one user's updates go out in commit order);
// `afterCommit` steps run once it has committed (caches, background refreshes). Neither
// runs when the transaction rolls back, so nothing is announced or cached for
// a change that did not happen.
import { logError } from '@/lib/log';
import { getDb, type Tx } from './client';

export interface UnitOfWork {
  readonly tx: Tx;
  /** Queued in order; runs after the work, before commit. Failures are logged, never fatal. */
  beforeCommit(step: () => Promise<void>): void;
  /** Queued in order; runs after commit. Failures are logged, never fatal. */
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
  await runSteps(after, 'after-commit');
  return result;
}
