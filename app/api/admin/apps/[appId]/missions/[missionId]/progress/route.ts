// /api/admin/apps/:appId/missions/:missionId/progress – players with progress on the mission now, by status
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/missions/:missionId/progress');
