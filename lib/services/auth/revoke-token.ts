// POST /v1/auth/revoke: the holder of a token revokes it. The database row
// first (the truth a re-warm reads), then the key-value store's copy that the
// token check reads.
import type { TokenClaims } from '@/lib/auth/jwt';
import { cacheTokenRevocation, storeTokenRevocation } from '@/lib/auth/revocation';
import type { ServiceContext } from '../context';

export async function revokeToken({ ctx, input }: { ctx: ServiceContext; input: { claims: TokenClaims } }): Promise<void> {
  const now = ctx.now();
  await storeTokenRevocation(ctx.deps.db, input.claims, now);
  await cacheTokenRevocation(input.claims, now);
}
