// GET /api/admin/apps/:appId/users/:userId – inspect a user; DELETE – erase the user (a data-erasure request, admins)
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/users/:userId');
