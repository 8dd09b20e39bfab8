// Users `.`, `..` and ids that look like routes or URL syntax under both
// production servers, over real HTTP: `npm start` (the custom server, which
// also refuses dot segments it is sent) and `next start` (the route files,
// where Next.js resolves dot segments before any of our code: the `by-id`
// form is how such users are reached there). Needs the production build.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBuild, startProduction, type Instance } from '@/lib/testing/production';
import { createTestApp } from '@/lib/testing/test-server';
import { ADDRESS_CATALOG, eraseUsers, exerciseUsers, expectDotSegmentsRefused } from '@/lib/testing/user-address';

const ADMIN_KEY = 'user-address-admin-key-0123456789abcdef';

for (const nextStart of [false, true]) {
  describeWithBuild(`${nextStart ? 'next start' : 'npm start'}: every admin operation on users ., .., export, by-id, a/b, 50%, what?`, () => {
    let server: Instance;
    const target = () => ({ url: server.url, adminKey: ADMIN_KEY, close: async () => undefined });
    beforeAll(async () => {
      server = await startProduction({ env: { ADMIN_API_KEY: ADMIN_KEY, QUESTLINE_QUIET: '1' }, nextStart });
    }, 120_000);
    afterAll(async () => {
      await server?.stop('SIGKILL');
    });

    it('reaches each user alone for every operation, and erases each alone', async () => {
      const app = await createTestApp(target(), ADDRESS_CATALOG);
      await exerciseUsers(target(), app.appId);
      await eraseUsers(target(), app.appId);
      if (!nextStart) await expectDotSegmentsRefused(target(), app.appId);
      // A new `..` user cannot be made with a token.
      const token = await fetch(`${server.url}/v1/auth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ appId: app.appId, appSecret: app.appSecret, userId: '..' }) });
      expect(token.status).toBe(400);
    }, 180_000);
  });
}
