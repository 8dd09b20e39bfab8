// GET|PUT|DELETE /api/admin/apps/:appId/draft – the app's draft catalog
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/draft');
