// POST /v1/auth/token: a one-hour access token for a player of the context's
// app (the caller proved the app secret). Its times are on the wall clock, as
// its verification reads them, not on the service clock a test may move.
import { signAccessToken, type IssuedToken } from '@/lib/auth/jwt';
import type { ServiceContext } from '../context';

export async function issueAccessToken({ ctx, input }: { ctx: ServiceContext; input: { userId: string } }): Promise<IssuedToken> {
  return signAccessToken(ctx.appId, input.userId);
}
