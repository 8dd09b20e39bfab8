// GET /v1/missions – list missions with the caller's progress
// GET /v1/missions/:id – one mission and the caller's progress
// POST /v1/missions/:id/claim – claim the reward of a completed mission
import type { z } from 'zod';
import { publicMission } from '@/lib/catalog/convert';
import { listMissionsQuerySchema, type missionDetailSchema } from '@/lib/contract/v1';
import { AppError } from '@/lib/errors';
import { checkKey, idempotencyCacheKey, usableKey } from '@/lib/idempotency/run-idempotent';
import { getUpdateLog, userOrderKey } from '@/lib/updates/log';
import { claimKey, claimReward } from '@/lib/services/claims/claim-reward';
import { listMissions as listMissionsVerb } from '@/lib/services/missions/list-missions';
import { readMission } from '@/lib/services/missions/read-mission';
import { claimsLimiter } from '@/lib/ratelimit/policies';
import { recommendationCacheKey } from '@/lib/recommendations/recommend';
import { userRoute } from '../handler';
import { idempotentJson, json, jsonText } from '../respond';
import { parseWith } from '../validate';
import { userServiceContext } from '../service-context';
import { missionListJson } from './mission-list-json';
import { metrics } from '@/lib/metrics';

const encodeCursor = (id: string) => Buffer.from(`m:${id}`, 'utf8').toString('base64url');
function decodeCursor(cursor: string): string {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith('m:') || text.length < 3) throw new AppError('validation_error', 'cursor: not a cursor of this API');
  return text.slice(2);
}

/** The defaults of listMissionsQuerySchema: a request without a query (the common one) skips zod. */
const DEFAULT_LIST_QUERY = listMissionsQuerySchema.parse({});

function listQueryOf(url: URL) {
  if (url.search === '' || url.search === '?') return DEFAULT_LIST_QUERY;
  return parseWith(listMissionsQuerySchema, Object.fromEntries(url.searchParams.entries()));
}

export const listMissions = userRoute(
  {
    // The user's latest sequence number, read with the token checks (one round trip): the record cache's check.
    prefetch: (_req, auth) => getUpdateLog().latestSeq(userOrderKey(auth.appId, auth.userId)),
  },
  async ({ url, auth, prefetched, requestId }) => {
    const query = listQueryOf(url);
    const list = await listMissionsVerb({
      ctx: await userServiceContext(auth, requestId),
      input: {
        userId: auth.userId,
        latestSeq: prefetched,
        campaignId: query.campaignId,
        status: query.status,
        limit: query.limit,
        after: query.cursor ? decodeCursor(query.cursor) : null,
        includeExpired: query.include === 'expired',
      },
    });
    return jsonText(missionListJson(list.catalog, list.views, list.nextAfter === null ? null : encodeCursor(list.nextAfter)));
  },
);

export const getMission = userRoute({}, async ({ auth, params, requestId }) => {
  const view = await readMission({ ctx: await userServiceContext(auth, requestId), input: { userId: auth.userId, missionId: params.id } });
  return json({ mission: publicMission(view.mission, view.locked), progress: view.progress } satisfies z.output<typeof missionDetailSchema>);
});

export const postClaim = userRoute(
  {
    limiter: claimsLimiter,
    // Read in the token checks' MGET (the same command): the user's cached recommendations (their
    // limit is the one a granted claim's background refresh uses), and the key's cached answer, as for events.
    storedKeys: (req, auth) => {
      const key = usableKey(req.headers.get('idempotency-key'));
      const recs = recommendationCacheKey(auth.appId, auth.userId);
      return key === null ? [recs] : [recs, idempotencyCacheKey(auth.appId, auth.userId, claimKey(key))];
    },
  },
  async ({ req, auth, params, stored, requestId }) => {
    const idempotencyKey = checkKey(req.headers.get('idempotency-key'));
    const input = { userId: auth.userId, missionId: params.id, idempotencyKey, cachedAnswer: stored?.[1], cachedRecommendations: stored?.[0] };
    const outcome = await claimReward({ ctx: await userServiceContext(auth, requestId), input }).catch(
      (err: unknown) => {
        if (err instanceof AppError) metrics().claims.inc({ outcome: err.code });
        throw err;
      },
    );
    metrics().claims.inc({ outcome: outcome.replay === null ? 'granted' : 'replayed' });
    return idempotentJson(outcome);
  },
);
