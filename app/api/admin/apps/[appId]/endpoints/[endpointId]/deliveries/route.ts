// /api/admin/apps/:appId/endpoints/:endpointId/deliveries – outbound webhooks (lib/http/admin/endpoints.ts)
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/endpoints/:endpointId/deliveries');
