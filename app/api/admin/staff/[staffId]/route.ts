// PATCH|DELETE /api/admin/staff/:staffId – change a role, remove an account
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/staff/:staffId');
