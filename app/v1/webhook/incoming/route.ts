// POST /v1/webhook/incoming – a signed delivery of events from an app's backend
import { routeEndpoint } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeEndpoint('/v1/webhook/incoming');
