// GET /api/admin/apps/:appId/users/:userId/updates – the user's live update stream, for staff (SSE)
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/users/:userId/updates');
