// POST /api/admin/apps/:appId/draft/reject – reject a publish waiting for approval, with a reason
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/draft/reject');
