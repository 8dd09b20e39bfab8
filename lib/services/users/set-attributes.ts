// Setting a user's attributes (POST /v1/auth/token with `attributes`): merged
// into the stored ones under the user's lock, the user's sequence number
// bumped in the same transaction and published (empty) after commit, so every
// per-user cache keyed on it reads the new attributes at the next request.
// Only callers holding the app secret reach this verb (never a player token).
import type { AttributesUpdate, UserAttributes } from '@/lib/contract/attributes';
import { forgetUserState } from '@/lib/progress/user-state';
import { lockUser } from '@/lib/progress/records';
import { applyAttributeUpdate } from '@/lib/users/attributes';
import { withTransaction, type ServiceContext } from '../context';

export async function setAttributes({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; attributes: AttributesUpdate };
}): Promise<{ attributes: UserAttributes }> {
  const { appId } = ctx;
  const { userId } = input;
  return withTransaction(ctx, async (tx) => {
    await lockUser(tx.uow.tx, appId, userId);
    const { seq, attributes } = await applyAttributeUpdate(tx.uow.tx, { appId, userId, field: 'attributes' }, input.attributes, ctx.now());
    tx.uow.afterCommit(async () => {
      forgetUserState(appId, userId);
      await ctx.deps.publish(appId, userId, seq, []);
    });
    return { attributes };
  });
}
