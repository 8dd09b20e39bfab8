// /api/admin/apps/:appId/event-payload-fields – payload-field suggestions for a filter row
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/event-payload-fields');
