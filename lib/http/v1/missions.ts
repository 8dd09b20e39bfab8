// GET /v1/missions – list missions with the caller's progress
// GET /v1/missions/:id – one mission and the caller's progress
// POST /v1/missions/:id/claim – claim the reward of a completed mission
import { z } from 'zod';
import { getDb } from '@/db/client';
import { recordDataPoint } from '@/lib/analytics/record-data-point';
import { balanceSchema } from '@/lib/balances/schema';
import { getCatalog } from '@/lib/catalog/catalog';
import { publicMission } from '@/lib/catalog/convert';
import { claimMission, type ClaimResult } from '@/lib/claims/claim-mission';
import { AppError } from '@/lib/errors';
import { checkKey, runIdempotent } from '@/lib/idempotency/run-idempotent';
import { listMissionViews, viewMission } from '@/lib/missions/read-missions';
import { criteriaSchema, idSchema, missionProgressSchema, progressStatusSchema, rewardSchema } from '@/lib/missions/schema';
import { readRecords } from '@/lib/progress/records';
import { claimsLimiter } from '@/lib/ratelimit/policies';
import { refreshRecommendationsInBackground } from '@/lib/recommendations/recommend';
import { publishUpdates } from '@/lib/updates/publish';
import { userRoute } from '../handler';
import { idempotentJson, json } from '../respond';
import { parseWith, queryOf } from '../validate';

export const publicMissionSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    criteria: criteriaSchema,
    reward: rewardSchema,
    campaignId: z.string().nullable(),
    expiresAt: z.number().nullable(),
    iconUrl: z.string().nullable(),
    prerequisites: z.array(z.string()),
  })
  .meta({ id: 'Mission' });

export const listMissionsQuerySchema = z.object({
  campaignId: idSchema.optional(),
  status: z.union([progressStatusSchema, z.literal('all')]).default('all'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(200).optional(),
  include: z.literal('expired').optional(),
});

export const missionListSchema = z
  .object({
    missions: z.array(publicMissionSchema),
    progress: z.record(z.string(), missionProgressSchema),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'MissionList' });

export const missionDetailSchema = z
  .object({ mission: publicMissionSchema, progress: missionProgressSchema.nullable() })
  .meta({ id: 'MissionDetail' });

export const claimResponseSchema = z
  .object({ progress: missionProgressSchema, balance: balanceSchema.nullable(), reward: rewardSchema })
  .meta({ id: 'ClaimResponse' });

const encodeCursor = (id: string) => Buffer.from(`m:${id}`, 'utf8').toString('base64url');
function decodeCursor(cursor: string): string {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith('m:') || text.length < 3) throw new AppError('validation_error', 'cursor: not a cursor of this API');
  return text.slice(2);
}

export const listMissions = userRoute({}, async ({ req, auth }) => {
  const query = parseWith(listMissionsQuerySchema, queryOf(req));
  const catalog = await getCatalog(auth.appId);
  const { views, nextAfter } = await listMissionViews(await getDb(), catalog, auth.userId, {
    campaignId: query.campaignId,
    status: query.status,
    limit: query.limit,
    after: query.cursor ? decodeCursor(query.cursor) : null,
    includeExpired: query.include === 'expired',
  });
  const progress: Record<string, unknown> = {};
  for (const v of views) if (v.progress) progress[v.mission.id] = v.progress;
  return json({
    missions: views.map((v) => publicMission(v.mission)),
    progress,
    nextCursor: nextAfter === null ? null : encodeCursor(nextAfter),
  });
});

export const getMission = userRoute({}, async ({ auth, params }) => {
  const catalog = await getCatalog(auth.appId);
  const mission = catalog.missions.get(params.id);
  const records = mission ? await readRecords(await getDb(), auth.appId, auth.userId) : null;
  // An archived mission is still readable by a user who has a record of it (it may be claimable).
  if (!mission || !records || (mission.archived && !records.has(mission.id))) {
    throw new AppError('mission_not_found', `No mission "${params.id}"`);
  }
  const view = viewMission(catalog, mission, records, Date.now());
  return json({ mission: publicMission(mission), progress: view.progress });
});

export const postClaim = userRoute({ limiter: claimsLimiter }, async ({ req, auth, params }) => {
  const key = checkKey(req.headers.get('idempotency-key'));
  const catalog = await getCatalog(auth.appId);
  const outcome = await runIdempotent<ClaimResult>(
    { appId: auth.appId, userId: auth.userId, key: key === null ? null : `claim:${key}`, requestHash: `claim:${params.id}` },
    async (uow) => {
      const { result, updates } = await claimMission(uow.tx, { appId: auth.appId, userId: auth.userId, missionId: params.id, catalog });
      // Under the user's lock, so this user's updates are published in commit order.
      uow.beforeCommit(() => publishUpdates(auth.appId, auth.userId, updates));
      uow.afterCommit(() =>
        recordDataPoint({ appId: auth.appId, userId: auth.userId, kind: 'claim', name: params.id, properties: { reward: result.reward } }),
      );
      // A first claim changes what is worth recommending: refresh in the background (pushes a `recommendation`).
      uow.afterCommit(async () => refreshRecommendationsInBackground({ ctx: { appId: auth.appId, userId: auth.userId } }));
      return { status: 200, body: result };
    },
  );
  return idempotentJson(outcome);
});
