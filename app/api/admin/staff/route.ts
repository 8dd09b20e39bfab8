// GET|POST /api/admin/staff – list and create staff accounts
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/staff');
