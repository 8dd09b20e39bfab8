// GET /docs – the API reference: the public /v1 document and the admin API's, rendered
// by Scalar from its browser bundle served by us (public/vendor/scalar, fetched at
// build time by scripts/fetch-scalar.mjs), no CDN.
import { ApiReference } from '@scalar/nextjs-api-reference';

export const dynamic = 'force-static';

export const GET = ApiReference({
  pageTitle: 'Questline API reference',
  cdn: '/vendor/scalar/api-reference-1.72.1.js',
  sources: [
    { title: 'Public API (/v1)', slug: 'v1', url: '/v1/openapi.json', default: true, agent: { disabled: true } },
    { title: 'Admin API (/api/admin)', slug: 'admin', url: '/api/admin/openapi.json', agent: { disabled: true } },
  ],
  // Nothing leaves this host: no web fonts, no telemetry, none of Scalar's
  // hosted extras (AI agent, MCP, deploy/share toolbar, hosted API client).
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  // Accepted by the browser bundle's configuration schema; the integration's type (0.9, the last
  // release that runs on Node 20) omits them.
  ...({ showToolbar: 'never', mcp: { disabled: true } } as object),
  favicon: '/favicon.svg',
  // Scalar's code-block copy buttons are icon-only with no name: give them one
  // (serialised into the page as is, so it must stand alone).
  onLoaded: () => {
    const label = () =>
      document.querySelectorAll('button.scalar-code-copy:not([aria-label])').forEach((b) => b.setAttribute('aria-label', 'Copy code'));
    label();
    new MutationObserver(label).observe(document.body, { childList: true, subtree: true });
  },
  // Questline's accent, and greys dark enough for WCAG AA contrast (the
  // integration's own theme uses #757575 and #8e8e8e on near-white).
  customCss: `
.light-mode.light-mode,
.light-mode .dark-mode.dark-mode {
  --scalar-color-2: #52525b; --scalar-color-3: #5f5f69; --scalar-color-accent: #4f46e5;
  --scalar-color-orange: #a4500b; --scalar-color-green: #17723a; --scalar-color-blue: #1f5fbf;
  --scalar-color-red: #b42318; --scalar-color-purple: #6d28d9; --scalar-color-yellow: #855d00;
}
.dark-mode.dark-mode { --scalar-color-2: rgba(255, 255, 255, 0.74); --scalar-color-3: rgba(255, 255, 255, 0.62); --scalar-color-accent: #8b8cf8; }
`,
});
