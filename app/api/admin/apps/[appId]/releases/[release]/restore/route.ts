// POST /api/admin/apps/:appId/releases/:release/restore – the draft becomes that release's catalog
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/releases/:release/restore');
