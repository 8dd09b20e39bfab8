// GET /api/metrics – Prometheus text format, for ADMIN_API_KEY bearer only (401
// otherwise; staff sessions do not apply: scrapers are not people).
import { checkAdminKey } from '@/lib/auth/admin';
import { metrics } from '@/lib/metrics';
import { publicRoute } from '../handler';

export const getMetrics = publicRoute(
  async ({ req }) => {
    checkAdminKey(req.headers.get('authorization') ?? '');
    const registry = metrics().registry;
    return new Response(await registry.metrics(), {
      headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' },
    });
  },
  { cors: false },
);
