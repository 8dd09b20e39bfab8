// GET|PUT|DELETE /api/admin/apps/:appId/themes/:themeId – one theme preset
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/themes/:themeId');
