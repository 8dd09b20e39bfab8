// Admin access: `Authorization: Bearer <ADMIN_API_KEY>`. Never an app's JWT.
import { timingSafeEqual, createHash } from 'node:crypto';
import { getConfig } from '@/lib/config';
import { AppError } from '@/lib/errors';

export interface AdminIdentity {
  /** Who, for the audit log. */
  actor: string;
}

function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

export async function checkAdminRequest(req: Request): Promise<AdminIdentity> {
  const key = getConfig().adminApiKey;
  const header = req.headers.get('authorization');
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!key) throw new AppError('unauthorized', 'The admin API is disabled: set ADMIN_API_KEY');
  if (!match || !sameSecret(match[1], key)) throw new AppError('unauthorized', 'Missing or wrong admin key');
  return { actor: 'admin-api-key' };
}
