// POST /api/admin/apps/:appId/draft/withdraw – the requester takes back their publish waiting for approval
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/draft/withdraw');
