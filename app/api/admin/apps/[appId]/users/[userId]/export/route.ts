// GET /api/admin/apps/:appId/users/:userId/export – everything stored about one user (a data-access request, admins)
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/users/:userId/export');
