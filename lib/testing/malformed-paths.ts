// Test support: paths whose percent-escapes do not decode (each answered `500 text/plain` under
// `next start` before the fix), shared by the Vitest suites and the browser suite.
export const MALFORMED_PATHS: [method: string, path: string][] = [
  ['GET', '/v1/missions/%ff'],
  ['GET', '/v1/%ff'],
  ['POST', '/v1/missions/%ff/claim'],
  ['GET', '/v1/campaigns/%C0%AF'],
  ['GET', '/v1/missions/%E0%80%AF'],
  ['GET', '/v1/missions/%ED%A0%80'],
  ['GET', '/v1/missions/100%'],
  ['POST', '/v1/events/%g1'],
  ['GET', '/api/admin/apps/%ff/catalog'],
  ['PUT', '/api/admin/apps/%ff/catalog'],
  ['POST', '/api/admin/apps/%C0%AF/rotate-secret'],
];
