// POST|DELETE /api/admin/apps/:appId/draft/publish – publish the draft now or at a time; cancel the schedule
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/draft/publish');
