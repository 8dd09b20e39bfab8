// GET /api/admin/me – who is calling: staff member or admin key, role and capabilities
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/me');
