// GET /api/admin/apps/:appId/releases – the app's releases, newest first, and the scheduled publish
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/releases');
