// POST /api/admin/apps/:appId/users/:userId/grants – grant or correct a currency (audited, never below zero)
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/users/:userId/grants');
