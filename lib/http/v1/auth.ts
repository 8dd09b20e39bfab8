// POST /v1/auth/token – exchange an app secret for a JWT
// POST /v1/auth/revoke – put the presented token on the denylist
import { checkAppSecret } from '@/lib/apps/apps';
import { issueAccessToken } from '@/lib/auth/jwt';
import { revokeToken } from '@/lib/auth/revocation';
import { tokenRequestSchema } from '@/lib/contract/v1';
import { AppError } from '@/lib/errors';
import { kvKey } from '@/lib/kv/keys';
import { tokenFailuresLimiter } from '@/lib/ratelimit/policies';
import { readJsonBody } from '../body';
import { publicRoute, userRoute } from '../handler';
import { rateLimitedError } from '../rate-limit';
import { json } from '../respond';
import { parseWith } from '../validate';
import { appServiceContext, systemServiceContext, userServiceContext } from '../service-context';
import { setAttributes } from '@/lib/services/users/set-attributes';

export const issueToken = publicRoute(async ({ req, clientIp, requestId }) => {
  const { value } = await readJsonBody(req);
  const input = parseWith(tokenRequestSchema, value);
  // Brute-force guard: only failures count, and past the cap even a right secret is refused.
  // A failure is counted by consume() itself (atomic in the store), so concurrent
  // wrong guesses cannot overshoot the cap between a check and a count.
  const limiter = tokenFailuresLimiter();
  // Encoded parts: an app id with a `:` cannot reach another (app, address) pair's count.
  const failureKey = kvKey('app-ip', input.appId, clientIp);
  if (!(await checkAppSecret((await systemServiceContext(requestId)).deps.db, input.appId, input.appSecret))) {
    const counted = await limiter.consume(failureKey);
    if (!counted.success) throw rateLimitedError(counted);
    throw new AppError('invalid_credentials', 'Unknown app or wrong secret');
  }
  const state = await limiter.peek(failureKey);
  if (state.remaining <= 0) throw rateLimitedError({ ...state, success: false });
  // Attributes are set only here and by the signed webhook: both hold the app secret.
  if (input.attributes !== undefined) {
    await setAttributes({ ctx: await appServiceContext(input.appId, requestId), input: { userId: input.userId, attributes: input.attributes } });
  }
  return json(await issueAccessToken(input.appId, input.userId));
});

export const revokeCurrentToken = userRoute({}, async ({ auth, requestId }) => {
  const ctx = await userServiceContext(auth, requestId);
  await revokeToken(ctx.deps.db, auth, ctx.now());
  return json({ revoked: true });
});
