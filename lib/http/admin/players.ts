// The inspector's admin API (support staff, docs/api.md "Inspector"):
// GET  /api/admin/apps/:appId/users/:userId          – missions (status, lock), balances, ledger, recent events with verdicts
// POST /api/admin/apps/:appId/users/:userId/events   – a test event as the user (recordEvent, source "test", audited); ?dryRun=1: its verdicts only
// GET  /api/admin/apps/:appId/users/:userId/updates  – the user's stream updates (SSE), staff session or admin key,
//                                                     plus event.recorded: every stored event with its verdicts, live
// Revoking the user's tokens is POST /api/admin/apps/:appId/revocations {userId} (./apps.ts).
import { serviceNow } from '@/lib/clock';
import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { inUnitOfWork } from '@/db/unit-of-work';
import { events, ledger } from '@/db/schema';
import { getApp } from '@/lib/apps/apps';
import { recordAudit } from '@/lib/audit';
import { can } from '@/lib/auth/roles';
import { getSignedInStaff } from '@/lib/auth/staff-session';
import { listBalances } from '@/lib/balances/balances';
import { getCatalog } from '@/lib/catalog/catalog';
import { testEventSchema, type Inspection } from '@/lib/contract/inspector';
import { AppError } from '@/lib/errors';
import { eventTimeProblem } from '@/lib/events/event-time';
import { recordEvent } from '@/lib/events/record-event';
import { viewMission, visibleTo } from '@/lib/missions/read-missions';
import { readAttributes, zoneOf } from '@/lib/users/attributes';
import { readRecords } from '@/lib/progress/records';
import { readJsonBody } from '../body';
import { adminRoute, type AdminContext } from '../handler';
import { json } from '../respond';
import { parseWith } from '../validate';
import { adminServiceContext } from '../service-context';
import { dryRunEvent } from '@/lib/services/events/dry-run-event';
import { describeRecordedEvent } from '@/lib/services/events/describe-recorded-event';
import { eventVerdicts } from '@/lib/services/events/event-verdicts';
import { decodeStoredEvent, staffChannel } from '@/lib/updates/staff';
import { userTarget } from '@/lib/services/_shared/staff-write';
import { openUpdateStream } from '../v1/sse';

/** Events and ledger rows the inspector shows, newest first. */
const INSPECTOR_LIMIT = 50;

const userIdSchema = z.string().min(1).max(256);
/** ?dryRun=1 (or true): the verdicts only, nothing stored or sent. */
const dryRunSchema = z.enum(['0', '1', 'true', 'false']).optional().transform((v) => v === '1' || v === 'true');

async function target(params: AdminContext['params']): Promise<{ appId: string; userId: string }> {
  const userId = parseWith(userIdSchema, params.userId);
  if (!(await getApp(params.appId))) throw new AppError('app_not_found', `No app "${params.appId}"`);
  return { appId: params.appId, userId };
}

async function inspectUser(appId: string, userId: string, now = serviceNow()): Promise<Inspection> {
  const catalog = await getCatalog(appId);
  const db = await getDb();
  const records = await readRecords(db, appId, userId);
  const attributes = await readAttributes(db, appId, userId);
  const timeZone = zoneOf(attributes);
  const balanceRows = await listBalances(db, appId, userId);
  const ledgerRows = await db
    .select()
    .from(ledger)
    .where(and(eq(ledger.appId, appId), eq(ledger.userId, userId)))
    .orderBy(desc(ledger.id))
    .limit(INSPECTOR_LIMIT);
  const eventRows = await db
    .select()
    .from(events)
    .where(and(eq(events.appId, appId), eq(events.userId, userId)))
    .orderBy(desc(events.timestamp), desc(events.receivedAt))
    .limit(INSPECTOR_LIMIT);

  const missions = catalog.ordered
    .filter((m) => !m.archived)
    .map((mission) => {
      const view = viewMission(catalog, mission, records, now, timeZone);
      return { mission, status: view.status, progress: view.progress, lock: view.lock, inAudience: visibleTo(catalog, mission, attributes) };
    });
  return {
    appId,
    userId,
    attributes,
    timeZone,
    missions,
    balances: balanceRows,
    ledger: ledgerRows.map(({ appId: _a, userId: _u, grantKey: _g, ...row }) => row),
    campaigns: [...catalog.campaigns.values()].map((c) => ({ id: c.id, title: c.title })),
    events: eventRows.map((e) => ({
      id: e.id,
      name: e.name,
      payload: e.payload,
      timestamp: e.timestamp,
      receivedAt: e.receivedAt,
      source: e.source,
      verdicts: eventVerdicts(catalog, e, now),
    })),
  };
}

export const getInspection = adminRoute('players.read', async ({ params }) => {
  const { appId, userId } = await target(params);
  return json(await inspectUser(appId, userId));
});

export const postTestEvent = adminRoute('players.test_event', async (request) => {
  const { req, url, params, admin } = request;
  const { appId, userId } = await target(params);
  const { value } = await readJsonBody(req);
  const input = parseWith(testEventSchema, value);
  const now = serviceNow();
  const event = { userId, name: input.name, payload: input.payload, timestamp: input.timestamp ?? now };
  const timeProblem = eventTimeProblem(event.timestamp, now, 'test');
  if (timeProblem) throw new AppError('validation_error', timeProblem);
  const dryRun = parseWith(dryRunSchema, url.searchParams.get('dryRun') ?? undefined, { prefix: 'query.dryRun' });
  if (dryRun) return json(await dryRunEvent({ ctx: await adminServiceContext(request, appId), input: { event } }));
  // The catalog is read before the transaction (the embedded database has one connection).
  const catalog = await getCatalog(appId);
  const recorded = await inUnitOfWork(undefined, async (uow) => {
    const outcome = await recordEvent({ ctx: { appId, source: 'test', uow, catalog }, input: { event, idempotencyKey: null } });
    await recordAudit(uow.tx, { actor: admin.actor, action: 'user.test_event', appId, target: userTarget(userId), after: { eventId: outcome.body.eventId, ...event } });
    return outcome.body;
  });
  return json(recorded);
});

export const streamUserUpdates = adminRoute('players.read', async (request) => {
  const { req, url, params, admin } = request;
  const owner = await target(params);
  const ctx = await adminServiceContext(request, owner.appId);
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
