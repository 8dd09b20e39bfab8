// PUT /api/admin/test-clock {"now": <ms> | null}: moves the service clock
// (lib/clock.ts) of this process, for tests of windows and streaks that would
// otherwise wait days. Served only by a server started with
// QUESTLINE_TEST_CLOCK=1 (lib/http/node-server.ts answers 404 otherwise, as
// for any unknown path); the admin key or an admin session is required. It is
// not part of the admin contract (no OpenAPI entry, no route file).
import { z } from 'zod';
import { setTestClock, serviceNow } from '@/lib/clock';
import { adminRoute } from '../handler';
import { readJsonBody } from '../body';
import { json } from '../respond';
import { parseWith } from '../validate';

const testClockSchema = z.strictObject({ now: z.number().int().positive().nullable() });

export const putTestClock = adminRoute('apps.manage', async ({ req }) => {
  const { value } = await readJsonBody(req);
  const { now } = parseWith(testClockSchema, value);
  setTestClock(now);
  return json({ now: serviceNow() });
});
