// GET /docs – the API reference: the public /v1 document and the admin API's, rendered
// by Scalar from its browser bundle served by us (public/vendor/scalar), no CDN.
import { ApiReference } from '@scalar/nextjs-api-reference';

export const dynamic = 'force-static';

export const GET = ApiReference({
  pageTitle: 'Questline API reference',
  cdn: '/vendor/scalar/api-reference-1.72.1.js',
  sources: [
    { title: 'Public API (/v1)', slug: 'v1', url: '/v1/openapi.json', default: true },
    { title: 'Admin API (/api/admin)', slug: 'admin', url: '/api/admin/openapi.json' },
  ],
  // Nothing leaves this host: no web fonts, no telemetry, no hosted API client.
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  favicon: '/favicon.svg',
});
