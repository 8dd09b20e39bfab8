// POST /v1/auth/token – exchange an app secret for a JWT
// POST /v1/auth/revoke – put the presented token on the denylist
import { tokenRequestSchema } from '@/lib/contract/v1';
import { readJsonBody } from '../body';
import { publicRoute, userRoute } from '../handler';
import { json } from '../respond';
import { parseWith } from '../validate';
import { appServiceContext, userServiceContext } from '../service-context';
import { checkAppSecretGuarded } from './backend-auth';
import { issueAccessToken } from '@/lib/services/auth/issue-access-token';
import { revokeToken } from '@/lib/services/auth/revoke-token';
import { setAttributes } from '@/lib/services/users/set-attributes';

export const issueToken = publicRoute(async ({ req, clientIp, requestId }) => {
  const { value } = await readJsonBody(req);
  const input = parseWith(tokenRequestSchema, value);
  // Brute-force guard (shared with the backend's spend): only failures count; past the cap even a right secret is refused.
  await checkAppSecretGuarded(input.appId, input.appSecret, clientIp, requestId);
  // Attributes are set only here and by the signed webhook: both hold the app secret.
  const ctx = await appServiceContext(input.appId, requestId);
  if (input.attributes !== undefined) await setAttributes({ ctx, input: { userId: input.userId, attributes: input.attributes } });
  return json(await issueAccessToken({ ctx, input: { userId: input.userId } }));
});

export const revokeCurrentToken = userRoute({}, async ({ auth, requestId }) => {
  const ctx = await userServiceContext(auth, requestId);
  await revokeToken({ ctx, input: { claims: auth } });
  return json({ revoked: true });
});
