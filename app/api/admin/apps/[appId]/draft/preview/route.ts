// POST /api/admin/apps/:appId/draft/preview – what GET /v1/missions would answer a user from the draft at a time
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/draft/preview');
