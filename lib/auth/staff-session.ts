// The staff member behind a request's session cookie, found through Better
// Auth's server API with the request's own headers: the same code answers for
// the admin API handlers (under `next start` or the plain Node server) and for
// the console's server-rendered pages.
import { toShownEmail } from '@/lib/staff/email';
import { isStaffRole, type StaffRole } from './roles';
import { getStaffAuth, wantsSecureCookies } from './staff-auth';

export interface SignedInStaff {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
}

/** The signed-in staff member, or null (no cookie, unknown, expired or removed session). */
export async function getSignedInStaff(headers: Headers, url?: string): Promise<SignedInStaff | null> {
  const cookie = headers.get('cookie');
  // No database round trip for requests that cannot carry a session.
  if (!cookie || !cookie.includes('questline.session_token')) return null;
  const auth = await getStaffAuth(wantsSecureCookies(headers, url));
  // The Node server's requests carry a Headers-like view of Node's headers (lib/http/node-request.ts): Better Auth gets web Headers.
  const session = await auth.api.getSession({ headers: headers instanceof Headers ? headers : new Headers(headers) });
  if (!session) return null;
  const { id, email, name, role } = session.user;
  if (!isStaffRole(role)) return null;
  return { id, email: toShownEmail(email), name, role };
}
