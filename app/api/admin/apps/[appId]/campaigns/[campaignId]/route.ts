// GET|PUT|DELETE /api/admin/apps/:appId/campaigns/:campaignId – one campaign
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/campaigns/:campaignId');
