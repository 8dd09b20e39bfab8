// POST /api/admin/apps/:appId/users/:userId/missions/:missionId/reset – a player's mission back to no progress (audited)
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/users/:userId/missions/:missionId/reset');
