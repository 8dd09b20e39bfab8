// Staff revoke one token by jti, or every token of a player issued before now
// (POST …/revocations): the revocation and its audit row in one transaction,
// then the key-value store's copy once it committed.
import { recordAudit } from '@/lib/audit';
import { revokeJtiInTransaction, revokeUserInTransaction } from '@/lib/auth/revocation';
import { actorLabel, withTransaction, type ServiceContext } from '../context';

export async function revokeTokens({ ctx, input }: { ctx: ServiceContext; input: { jti: string } | { userId: string } }): Promise<void> {
  const { appId } = ctx;
  const actor = actorLabel(ctx.actor);
  // The service clock (the wall clock in production; the test clock route moves it).
  const now = ctx.now();
  const cache = await withTransaction(ctx, async ({ deps: { db: tx } }) => {
    if ('jti' in input) {
      const step = await revokeJtiInTransaction(tx, appId, input.jti, now);
      await recordAudit(tx, { actor, action: 'token.revoke', appId, target: `jti:${input.jti}`, after: { revokedAt: now } }, now);
      return step;
    }
    const step = await revokeUserInTransaction(tx, appId, input.userId, now);
    await recordAudit(tx, { actor, action: 'user.revoke_tokens', appId, target: `user:${input.userId}`, after: { before: now } }, now);
    return step;
  });
  await cache();
}
