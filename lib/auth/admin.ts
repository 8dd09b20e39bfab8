// Admin access: `Authorization: Bearer <ADMIN_API_KEY>` (automation, with
// admin rights) or a staff session cookie from the console, never an app's
// JWT. Every admin request names the capability it needs (lib/auth/roles.ts).
import { timingSafeEqual, createHash } from 'node:crypto';
import { getConfig } from '@/lib/config';
import { AppError } from '@/lib/errors';
import { CAPABILITIES, can, type Capability, type StaffRole } from './roles';
import { assertSameOriginWrite } from './same-origin';
import { getSignedInStaff, type SignedInStaff } from './staff-session';

export interface AdminIdentity {
  /** Who, for the audit log: `admin-api-key` or `staff:<email>`. */
  actor: string;
  role: StaffRole;
  /** The signed-in staff member; null for the admin key. */
  staff: SignedInStaff | null;
}

function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** The admin key as a bearer credential; 401 unauthorized when missing, wrong or disabled. */
export function checkAdminKey(header: string): AdminIdentity {
  const key = getConfig().adminApiKey;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!key) throw new AppError('unauthorized', 'Bearer access to the admin API is disabled: set ADMIN_API_KEY, or sign in to the console');
  if (!match || !sameSecret(match[1], key)) throw new AppError('unauthorized', 'Missing or wrong admin key');
  return { actor: 'admin-api-key', role: 'admin', staff: null };
}

/** Who is calling, without a capability check (GET /api/admin/me). */
export async function identifyAdmin(req: Request): Promise<AdminIdentity> {
  const header = req.headers.get('authorization');
  // A request that sends a key is judged by the key alone, even with a cookie.
  if (header) return checkAdminKey(header);
  const member = await getSignedInStaff(req.headers, req.url);
  if (!member) throw new AppError('unauthorized', 'Sign in to the console, or send the admin key as a bearer token');
  assertSameOriginWrite(req);
  return { actor: `staff:${member.email}`, role: member.role, staff: member };
}

export async function checkAdminRequest(req: Request, capability: Capability): Promise<AdminIdentity> {
  const identity = await identifyAdmin(req);
  if (!can(identity.role, capability)) {
    const allowed = CAPABILITIES[capability].join(' or ');
    throw new AppError('forbidden', `The ${identity.role} role cannot do this (${capability}: ${allowed} only)`);
  }
  return identity;
}
