// /api/admin/apps/:appId/missions/:missionId/archive – archive a mission
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/missions/:missionId/archive');
