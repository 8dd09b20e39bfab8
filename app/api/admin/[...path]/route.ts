// Any other /api/admin path: 404 not_found in the spec's error shape (no CORS, like every admin route).
import { adminNotFound } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export { adminNotFound as GET, adminNotFound as POST, adminNotFound as PUT, adminNotFound as PATCH, adminNotFound as DELETE };
