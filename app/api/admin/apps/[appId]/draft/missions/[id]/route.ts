// /api/admin/apps/:appId/draft/missions/:id – one item of the draft: write it (PUT), remove it (DELETE)
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/api/admin/apps/:appId/draft/missions/:id');
