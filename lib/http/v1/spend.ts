// POST /v1/balance/spend – the game backend spends a player's currency
//
// Checks in this order, refusing before anything is written: credentials
// (401, a player's token included; 429 past the app secret's guard) → body
// size (413) → Idempotency-Key (400) → body (400) → the verb: currency
// defined (400, with the nearest known one) → user seen (404) → balance
// (409) → applied (200, or the first answer again with X-Idempotent-Replay).
import { spendRequestSchema } from '@/lib/contract/v1';
import { AppError } from '@/lib/errors';
import { checkKey } from '@/lib/idempotency/run-idempotent';
import { spend } from '@/lib/services/balances/spend';
import { parseJsonText, readRawBytes } from '../body';
import { publicRoute } from '../handler';
import { noteApp } from '../observe';
import { idempotentJson } from '../respond';
import { appServiceContext } from '../service-context';
import { parseWith } from '../validate';
import { authenticateBackend } from './backend-auth';

function decodeUtf8(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError('validation_error', 'Request body is not UTF-8');
  }
}

export const postSpend = publicRoute(async ({ req, clientIp, requestId }) => {
  const raw = await readRawBytes(req);
  const caller = await authenticateBackend(req, raw, clientIp, requestId);
  noteApp(req, caller.appId);
  const header = checkKey(req.headers.get('idempotency-key'));
  const body = parseWith(spendRequestSchema, parseJsonText(decodeUtf8(raw)));
  if (header !== null && body.idempotencyKey !== undefined && header !== body.idempotencyKey) {
    throw new AppError('validation_error', 'idempotencyKey: must equal the Idempotency-Key header');
  }
  // Signed: the key must be inside the signed body, or a captured request could be replayed under a new key.
  if (caller.scheme === 'signature' && body.idempotencyKey === undefined) {
    throw new AppError('validation_error', 'idempotencyKey: required in the body of a signed spend (the signature must cover it)');
  }
  const idempotencyKey = body.idempotencyKey ?? header;
  if (idempotencyKey === null) throw new AppError('validation_error', 'Idempotency-Key: required (1 to 255 characters)');
  const ctx = await appServiceContext(caller.appId, requestId);
  const { userId, currency, amount, reason } = body;
  return idempotentJson(await spend({ ctx, input: { userId, currency, amount, reason: reason ?? null, idempotencyKey } }));
});
