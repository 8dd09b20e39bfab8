// The support desk's admin API (docs/api.md "Support desk", docs/inspector.md):
// GET    /api/admin/apps/:appId/users                                   – find a player by the start of their id, most recently seen first
// POST   /api/admin/apps/:appId/users/:userId/grants                    – grant (+) or correct (−) a currency, never below zero
// POST   /api/admin/apps/:appId/users/:userId/missions/:missionId/reset – the mission back to no progress in the current window
// POST   /api/admin/apps/:appId/users/:userId/missions/:missionId/complete – the mission completed, claimable as usual
// GET    /api/admin/apps/:appId/users/:userId/notes                     – support notes, newest first
// POST   /api/admin/apps/:appId/users/:userId/notes                     – add a note
// GET    /api/admin/apps/:appId/users/:userId/export                    – everything stored about the user (admins)
// DELETE /api/admin/apps/:appId/users/:userId                           – erase the user (admins, with a reason)
// Each handler: parse with the contract schema, build the context once, call one verb, answer.
import { z } from 'zod';
import { grantSchema, missionActionBodySchema, noteInputSchema, reasonBodySchema, userSearchQuerySchema } from '@/lib/contract/desk';
import { checkKey } from '@/lib/idempotency/run-idempotent';
import { grant } from '@/lib/services/balances/grant';
import { addNote } from '@/lib/services/notes/add-note';
import { listNotes } from '@/lib/services/notes/list-notes';
import { completeMission } from '@/lib/services/progress/complete-mission';
import { resetMission } from '@/lib/services/progress/reset-mission';
import { eraseUser } from '@/lib/services/users/erase-user';
import { exportUser } from '@/lib/services/users/export-user';
import { searchUsers } from '@/lib/services/users/search-users';
import { readJsonBody } from '../body';
import { adminRoute, type AdminContext } from '../handler';
import { idempotentJson, json } from '../respond';
import { adminServiceContext } from '../service-context';
import { parseWith, queryOf } from '../validate';

const userIdSchema = z.string().min(1).max(256);

const keyOf = (req: Request) => checkKey(req.headers.get('idempotency-key'));
const userOf = (params: AdminContext['params']) => parseWith(userIdSchema, params.userId, { prefix: 'userId' });

export const getUsers = adminRoute('players.read', async (req) => {
  const input = parseWith(userSearchQuerySchema, queryOf(req.req), { prefix: 'query' });
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await searchUsers({ ctx, input }));
});

export const postGrant = adminRoute('players.adjust', async (req) => {
  const userId = userOf(req.params);
  const body = parseWith(grantSchema, (await readJsonBody(req.req)).value);
  const ctx = await adminServiceContext(req, req.params.appId);
  return idempotentJson(await grant({ ctx, input: { ...body, userId, idempotencyKey: keyOf(req.req) } }));
});

const missionAction = (verb: typeof resetMission) =>
  adminRoute('players.adjust', async (req) => {
    const userId = userOf(req.params);
    const { reason, createUser } = parseWith(missionActionBodySchema, (await readJsonBody(req.req)).value);
    const ctx = await adminServiceContext(req, req.params.appId);
    return idempotentJson(await verb({ ctx, input: { userId, missionId: req.params.missionId, reason, createUser, idempotencyKey: keyOf(req.req) } }));
  });

export const postMissionReset = missionAction(resetMission);
export const postMissionComplete = missionAction(completeMission);

export const getNotes = adminRoute('players.read', async (req) => {
  const userId = userOf(req.params);
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await listNotes({ ctx, input: { userId } }));
});

export const postNote = adminRoute('players.adjust', async (req) => {
  const userId = userOf(req.params);
  const { text } = parseWith(noteInputSchema, (await readJsonBody(req.req)).value);
  const ctx = await adminServiceContext(req, req.params.appId);
  return idempotentJson(await addNote({ ctx, input: { userId, text, idempotencyKey: keyOf(req.req) } }));
});

export const getUserExport = adminRoute('players.data', async (req) => {
  const userId = userOf(req.params);
  const ctx = await adminServiceContext(req, req.params.appId);
  const document = await exportUser({ ctx, input: { userId } });
  return json(document, { headers: { 'Content-Disposition': `attachment; filename="questline-${req.params.appId}-user-export.json"` } });
});

export const deleteUser = adminRoute('players.data', async (req) => {
  const userId = userOf(req.params);
  const { reason } = parseWith(reasonBodySchema, (await readJsonBody(req.req)).value);
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await eraseUser({ ctx, input: { userId, reason } }));
});
