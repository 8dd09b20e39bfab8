// A short seeded fuzz of every /v1, admin and ops endpoint over real HTTP
// (lib/testing/fuzz.ts): only documented 4xx codes, never a 5xx, and a
// refused write leaves the database as it was. Seeds: FUZZ_SEED when set,
// else a fixed one and the day's (so CI explores a new sequence each day and
// a failure replays with FUZZ_SEED=<seed>). The long run: scripts/fuzz.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mission } from '@/lib/testing/fixtures';
import { namesIn, refreshCredentials, runFuzz, type FuzzCredentials, type FuzzRequest } from '@/lib/testing/fuzz';
import { appRowCounts, rowsNamedBy } from '@/lib/testing/row-counts';
import { createTestApp, issueToken, startTestServer, type TestServer } from '@/lib/testing/test-server';

const COUNT = Number(process.env.FUZZ_COUNT ?? 250);
const today = Number(new Date().toISOString().slice(0, 10).replace(/-/g, ''));
const SEEDS = process.env.FUZZ_SEED ? [Number(process.env.FUZZ_SEED)] : [1, today];

let server: TestServer;
let credentials: FuzzCredentials;
beforeAll(async () => {
  server = await startTestServer();
  const app = await createTestApp(server, { missions: [mission('f1', { criteria: { eventName: 'play', count: 2 } }), mission('f2')], campaigns: [] });
  credentials = {
    ...app,
    adminKey: server.adminKey,
    userId: 'fuzz-user',
    token: await issueToken(server, app, 'fuzz-user'),
    missionIds: ['f1', 'f2', 'missing'],
  };
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('fuzzing every endpoint', () => {
  it.each(SEEDS)(
    'seed %i: only documented 4xx, never a 5xx, and nothing written by a refused request',
    async (seed) => {
      const appIds = [credentials.appId];
      const report = await runFuzz({
        base: new URL(server.url),
        seed,
        count: COUNT,
        credentials,
        refresh: (c, req, answer) => refreshCredentials(new URL(server.url), c, req, answer),
        snapshot: () => appRowCounts(appIds),
        unchanged: async (before: unknown, req: FuzzRequest) => {
          const after = await appRowCounts(appIds);
          if (JSON.stringify(after) !== JSON.stringify(before)) return `rows changed: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`;
          const named = await rowsNamedBy(namesIn(req.body));
          // A refused POST /api/admin/apps or /api/admin/staff must not have created what its body names
          // (the fuzz app itself is named by many bodies: it exists from the start).
          const preexisting = namesIn(req.body).includes(credentials.appId) ? 1 : 0;
          return named > preexisting ? `a row named in the body exists (${named})` : null;
        },
      });
      // Secrets rotated and tokens revoked by this run: the next seed starts from what holds now.
      credentials = report.credentials;
      if (report.problems.length > 0) {
        console.error(`fuzz failed with seed ${seed} (replay: FUZZ_SEED=${seed} npx vitest run lib/http/fuzz.test.ts)\n${report.problems.slice(0, 20).join('\n')}`);
      }
      expect(report.problems, `seed ${seed}; statuses ${JSON.stringify(report.byStatus)}`).toEqual([]);
      // The run reached the handlers, not only the front door.
      expect(Object.keys(report.byStatus).some((s) => s.startsWith('2'))).toBe(true);
      expect(Object.keys(report.byStatus).some((s) => s === '400')).toBe(true);
    },
    300_000,
  );
});
