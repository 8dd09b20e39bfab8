// /api/admin/apps/:appId/draft/campaigns/:id/revert – the draft's item back to its live version
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/draft/campaigns/:id/revert');
