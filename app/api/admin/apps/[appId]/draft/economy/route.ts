// PUT /api/admin/apps/:appId/draft/economy – the draft's currencies and items sections
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/draft/economy');
