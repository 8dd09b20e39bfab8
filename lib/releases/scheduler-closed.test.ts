// The scheduled-release poller never reopens a closed database: a tick that
// comes after closeDb() (a test server's close, the started test template's
// exit) skips its poll, as the outbound sweep does. The interval is driven by
// fake timers, so the tick provably ran.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { prepareTestEnv } from '@/lib/testing/test-env';

beforeAll(() => {
  prepareTestEnv();
  process.env.RELEASE_POLL_MS = '100';
});
afterAll(async () => {
  vi.useRealTimers();
  const { closeDb } = await import('@/db/client');
  await closeDb();
});

it('skips its tick while the database is closed', async () => {
  const [{ closeDb, dbIsOpen }, { processDb }, { startReleaseScheduler }] = await Promise.all([
    import('@/db/client'),
    import('@/lib/process-db'),
    import('@/lib/releases/scheduler'),
  ]);
  await processDb();
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  startReleaseScheduler();
  await closeDb();
  expect(dbIsOpen()).toBe(false);
  vi.advanceTimersByTime(350);
  // Three ticks came and went: none reopened the database.
  expect(dbIsOpen()).toBe(false);
});
