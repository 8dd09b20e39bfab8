// GET /api/ready – PostgreSQL and the store answer, migrations applied, not shutting down
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/ready');
