// POST /api/admin/apps/:appId/users/:userId/missions/:missionId/complete – a player's mission completed, claimable (audited)
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/users/:userId/missions/:missionId/complete');
