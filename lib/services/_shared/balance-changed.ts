// A balance moved inside a transaction (a staff grant or correction, a
// backend spend): the player's next change number, `balance.changed` on
// their stream after commit, and the outbound notification in the same
// transaction. Answers the balance as the API shows it.
import type { TxContext } from '../context';
import { notify } from './notify';
import { nextUserSeq } from './staff-write';

export async function announceBalance(
  tx: TxContext,
  scope: { appId: string; userId: string },
  row: { currency: string; amount: number; updatedAt: number },
  now: number,
): Promise<{ userId: string; currency: string; amount: number; updatedAt: number }> {
  const { appId, userId } = scope;
  const seq = await nextUserSeq(tx.uow.tx, appId, userId);
  const balance = { userId, currency: row.currency, amount: row.amount, updatedAt: row.updatedAt };
  tx.uow.afterCommit(() => tx.deps.publish(appId, userId, seq, [{ type: 'balance.changed', data: balance }]));
  await notify(tx, scope, [{ type: 'balance.changed', data: balance }], now);
  return balance;
}
