// POST /api/admin/apps/:appId/draft/impact – what the draft would have done over the last days of stored events
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/draft/impact');
