// Any other /v1 path: 404 not_found in the spec's error shape.
import { notFound } from '@/lib/http/routes';

export const dynamic = 'force-dynamic';
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
