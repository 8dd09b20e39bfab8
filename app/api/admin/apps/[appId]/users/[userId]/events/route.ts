// POST /api/admin/apps/:appId/users/:userId/events – a test event as the user (audited)
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/users/:userId/events');
