// POST /api/admin/apps/:appId/revocations – revoke a token or all of a user's tokens
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/revocations');
