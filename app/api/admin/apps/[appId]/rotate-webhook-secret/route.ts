// POST /api/admin/apps/:appId/rotate-webhook-secret – rotate an app's webhook secret (the previous one has a grace period)
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/rotate-webhook-secret');
