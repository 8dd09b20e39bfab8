// POST /api/admin/apps/:appId/draft/approve – approve another staff member's publish: it goes live, or is scheduled
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/draft/approve');
