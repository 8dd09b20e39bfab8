// /api/auth/* – staff sign-in, sign-out and session (Better Auth), behind the failed sign-in limit
import { handleStaffAuth } from '@/lib/http/staff-auth-handler';

export const dynamic = 'force-dynamic';
export { handleStaffAuth as GET, handleStaffAuth as POST };
