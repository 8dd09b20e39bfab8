// POST /api/admin/apps/:appId/rotate-secret – rotate an app's secret
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/rotate-secret');
