// The inspector's admin API (support staff, docs/api.md "Inspector"):
// GET  /api/admin/apps/:appId/users/:userId          – missions (status, lock), balances, ledger, recent events with verdicts
// GET  /api/admin/apps/:appId/users/:userId/events   – every stored event, newest first, a page at a time (?before, name, from, to)
// POST /api/admin/apps/:appId/users/:userId/events   – a test event as the user (recordEvent, source "test", audited); ?dryRun=1: its verdicts only
// GET  /api/admin/apps/:appId/users/:userId/updates  – the user's stream updates (SSE), staff session or admin key,
//                                                     plus event.recorded: every stored event with its verdicts, live
// Revoking the user's tokens is POST /api/admin/apps/:appId/revocations {userId} (./apps.ts).
import { z } from 'zod';
import { can } from '@/lib/auth/roles';
import { getSignedInStaff } from '@/lib/auth/staff-session';
import { inspectorEventsQuerySchema, testEventSchema } from '@/lib/contract/inspector';
import type { ServiceContext } from '@/lib/services/context';
import { dryRunEvent } from '@/lib/services/events/dry-run-event';
import { describeRecordedEvent } from '@/lib/services/events/describe-recorded-event';
import { listUserEvents } from '@/lib/services/events/list-user-events';
import { recordTestEvent } from '@/lib/services/events/record-test-event';
import { inspectUser } from '@/lib/services/users/inspect-user';
import { decodeStoredEvent, staffChannel } from '@/lib/updates/staff';
import { readJsonBody } from '../body';
import { adminRoute, type AdminContext } from '../handler';
import { json } from '../respond';
import { parseWith, queryOf } from '../validate';
import { adminServiceContext } from '../service-context';
import { openUpdateStream } from '../v1/sse';

const userIdSchema = z.string().min(1).max(256);
/** ?dryRun=1 (or true): the verdicts only, nothing stored or sent. */
const dryRunSchema = z.enum(['0', '1', 'true', 'false']).optional().transform((v) => v === '1' || v === 'true');

/** The user id (400 when malformed), then the request's context (404 app_not_found). */
async function target(request: AdminContext): Promise<{ ctx: ServiceContext; userId: string }> {
  const userId = parseWith(userIdSchema, request.params.userId);
  return { ctx: await adminServiceContext(request, request.params.appId), userId };
}

export const getInspection = adminRoute('players.read', async (request) => {
  const { ctx, userId } = await target(request);
  return json(await inspectUser({ ctx, input: { userId } }));
});

export const getUserEvents = adminRoute('players.read', async (request) => {
  // A `userId` in the query names the user (…/users/by-id/events?userId=…: addressedUser in handler.ts), not a filter.
  const { userId: _named, ...query } = queryOf(request.req);
  const input = parseWith(inspectorEventsQuerySchema, query, { prefix: 'query' });
  const { ctx, userId } = await target(request);
  return json(await listUserEvents({ ctx, input: { ...input, userId } }));
});

export const postTestEvent = adminRoute('players.test_event', async (request) => {
  const { req, url } = request;
  const { ctx, userId } = await target(request);
  const { value } = await readJsonBody(req);
  const input = parseWith(testEventSchema, value);
  // Without a timestamp the event happens now; recording (and the dry run) bound a given one (400 validation_error).
  const event = { userId, name: input.name, payload: input.payload, timestamp: input.timestamp ?? ctx.now() };
  const dryRun = parseWith(dryRunSchema, url.searchParams.get('dryRun') ?? undefined, { prefix: 'query.dryRun' });
  if (dryRun) return json(await dryRunEvent({ ctx, input: { event } }));
  return json(await recordTestEvent({ ctx, input: { event } }));
});

export const streamUserUpdates = adminRoute('players.read', async (request) => {
  const { req, url, admin } = request;
  const { ctx, userId } = await target(request);
  const owner = { appId: ctx.appId, userId };
  // Every event of the user as it is stored (even one that changed nothing), with its verdicts on the current catalog.
  const unlogged = {
    channel: staffChannel(owner.appId, owner.userId),
    render: async (message: string) => {
      const event = decodeStoredEvent(message);
      if (!event || event.userId !== owner.userId) return null;
      return JSON.stringify({ type: 'event.recorded', data: await describeRecordedEvent({ ctx, input: { event } }) });
    },
  };
  const headers = req.headers;
  // The admin key cannot be taken back while the process runs; a staff session can end, or its role change.
  const stillAuthorized = admin.staff
    ? async () => {
        // A failed look-up (database briefly away) keeps the stream; the next tick asks again.
        const member = await getSignedInStaff(headers, req.url).catch(() => undefined);
        return member === undefined || (member !== null && can(member.role, 'players.read'));
      }
    : async () => true;
  return openUpdateStream({ req, url, owner, stillAuthorized, capScope: 'staff-streams', unlogged });
});
