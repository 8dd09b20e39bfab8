// POST /v1/missions/:id/claim – claim a completed mission's reward
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/v1/missions/:id/claim');
