// /api/admin/apps/:appId/draft/campaigns/:id/duplicate – a copy of the campaign and its missions in the draft, with new ids
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/draft/campaigns/:id/duplicate');
