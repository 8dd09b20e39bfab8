// GET /api/admin/openapi.json – the admin API's OpenAPI document
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/openapi.json');
