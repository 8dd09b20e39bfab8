// Every public route in one table: the Next.js route files export from it and
// the Node servers (lib/http/node-server.ts) match against it, so both
// serve the same handlers. A test checks each entry has its route file.
import { errorRoute, type Handler, type RouteContext } from './handler';
import { isPreflight, preflightResponse, withCors } from './cors';
import { requestIdOf } from './request-id';
import { issueToken, revokeCurrentToken } from './v1/auth';
import { postEvent } from './v1/events';
import { getMission, listMissions, postClaim } from './v1/missions';
import { getBalance } from './v1/balance';
import { postSpend } from './v1/spend';
import { getCampaign, listCampaigns } from './v1/campaigns';
import { openApiDocument } from './v1/openapi';
import { streamUpdates } from './v1/sse';
import { postWebhook } from './v1/webhook';
import { getRecommendationsHandler } from './v1/recommendations';
import { getAppCatalog, getApps, patchApp, postApp, postRevocation, postRotateSecret, putAppCatalog } from './admin/apps';
import { deleteStaff, getMe, getStaff, patchStaff, postStaff } from './admin/staff';
import { adminOpenApiDocument } from './admin/openapi';
import { postRotateWebhookSecret } from './admin/webhook-secret';
import { deleteEndpointItem, getDeliveries, getEndpoints, postEndpoint, postRedeliver } from './admin/endpoints';
import { getAnalytics } from './admin/analytics';
import { getInspection, getUserEvents, postTestEvent, streamUserUpdates } from './admin/players';
import { getEventNames, getPayloadFields, getMission as getAdminMission, getMissions, postArchiveMission, postDuplicateMission, postMission, postUnarchiveMission, putMission } from './admin/missions';
import { getAudit } from './admin/audit';
import { getBackup } from './admin/backup';
import { deleteUser, getNotes, getUserExport, getUsers, postGrant, postMissionComplete, postMissionReset, postNote } from './admin/desk';
import {
  deleteCampaignItem,
  deleteThemeItem,
  getCampaignItem,
  getCampaigns,
  getThemeItem,
  getThemes,
  postCampaign,
  postTheme,
  putCampaign,
  putTheme,
} from './admin/catalog-items';
import { getEconomyHandler, putDraftEconomyHandler } from './admin/economy';
import { deleteDraftHandler, deletePublishHandler, draftItemHandlers, duplicateCampaignHandler, getDraftHandler, getMissionProgressHandler, getReleasesHandler, postApproveHandler, postImpactHandler, postRejectHandler, postWithdrawHandler, postPreviewHandler, postPublishHandler, postRestoreHandler, putDraftHandler } from './admin/drafts';
import { getHealth, getReady } from './ops/health';
import { getMetrics } from './ops/metrics';
import { observe } from './observe';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type MethodHandlers = Partial<Record<Method, Handler>>;

export interface RouteEntry {
  /** Path pattern with `:name` segments, e.g. /v1/missions/:id. */
  path: string;
  handlers: MethodHandlers;
}

export const v1Routes: RouteEntry[] = [
  { path: '/v1/auth/token', handlers: { POST: issueToken } },
  { path: '/v1/auth/revoke', handlers: { POST: revokeCurrentToken } },
  { path: '/v1/events', handlers: { POST: postEvent } },
  { path: '/v1/missions', handlers: { GET: listMissions } },
  { path: '/v1/missions/:id', handlers: { GET: getMission } },
  { path: '/v1/missions/:id/claim', handlers: { POST: postClaim } },
  { path: '/v1/balance', handlers: { GET: getBalance } },
  { path: '/v1/balance/spend', handlers: { POST: postSpend } },
  { path: '/v1/campaigns', handlers: { GET: listCampaigns } },
  { path: '/v1/campaigns/:id', handlers: { GET: getCampaign } },
  { path: '/v1/sse/updates', handlers: { GET: streamUpdates } },
  { path: '/v1/openapi.json', handlers: { GET: openApiDocument } },
  { path: '/v1/webhook/incoming', handlers: { POST: postWebhook } },
  { path: '/v1/recommendations', handlers: { GET: getRecommendationsHandler } },
];

export const adminRoutes: RouteEntry[] = [
  { path: '/api/admin/apps', handlers: { POST: postApp, GET: getApps } },
  { path: '/api/admin/apps/:appId', handlers: { PATCH: patchApp } },
  { path: '/api/admin/apps/:appId/catalog', handlers: { PUT: putAppCatalog, GET: getAppCatalog } },
  { path: '/api/admin/apps/:appId/draft', handlers: { GET: getDraftHandler, PUT: putDraftHandler, DELETE: deleteDraftHandler } },
  { path: '/api/admin/apps/:appId/draft/publish', handlers: { POST: postPublishHandler, DELETE: deletePublishHandler } },
  { path: '/api/admin/apps/:appId/draft/approve', handlers: { POST: postApproveHandler } },
  { path: '/api/admin/apps/:appId/draft/reject', handlers: { POST: postRejectHandler } },
  { path: '/api/admin/apps/:appId/draft/withdraw', handlers: { POST: postWithdrawHandler } },
  { path: '/api/admin/apps/:appId/draft/impact', handlers: { POST: postImpactHandler } },
  { path: '/api/admin/apps/:appId/draft/preview', handlers: { POST: postPreviewHandler } },
  { path: '/api/admin/apps/:appId/draft/economy', handlers: { PUT: putDraftEconomyHandler } },
  { path: '/api/admin/apps/:appId/economy', handlers: { GET: getEconomyHandler } },
  ...(['missions', 'campaigns', 'themes'] as const).flatMap((collection) => {
    const item = draftItemHandlers(collection);
    return [
      { path: `/api/admin/apps/:appId/draft/${collection}/:id`, handlers: { PUT: item.put, DELETE: item.remove } },
      { path: `/api/admin/apps/:appId/draft/${collection}/:id/revert`, handlers: { POST: item.revert } },
    ];
  }),
  { path: '/api/admin/apps/:appId/draft/campaigns/:id/duplicate', handlers: { POST: duplicateCampaignHandler } },
  { path: '/api/admin/apps/:appId/releases', handlers: { GET: getReleasesHandler } },
  { path: '/api/admin/apps/:appId/releases/:release/restore', handlers: { POST: postRestoreHandler } },
  { path: '/api/admin/apps/:appId/rotate-secret', handlers: { POST: postRotateSecret } },
  { path: '/api/admin/apps/:appId/revocations', handlers: { POST: postRevocation } },
  { path: '/api/admin/me', handlers: { GET: getMe } },
  { path: '/api/admin/staff', handlers: { GET: getStaff, POST: postStaff } },
  { path: '/api/admin/staff/:staffId', handlers: { PATCH: patchStaff, DELETE: deleteStaff } },
  { path: '/api/admin/openapi.json', handlers: { GET: adminOpenApiDocument } },
  { path: '/api/admin/apps/:appId/rotate-webhook-secret', handlers: { POST: postRotateWebhookSecret } },
  { path: '/api/admin/apps/:appId/analytics', handlers: { GET: getAnalytics } },
  { path: '/api/admin/apps/:appId/users/:userId', handlers: { GET: getInspection, DELETE: deleteUser } },
  { path: '/api/admin/apps/:appId/users/:userId/events', handlers: { GET: getUserEvents, POST: postTestEvent } },
  { path: '/api/admin/apps/:appId/users/:userId/updates', handlers: { GET: streamUserUpdates } },
  { path: '/api/admin/apps/:appId/users', handlers: { GET: getUsers } },
  { path: '/api/admin/apps/:appId/users/:userId/grants', handlers: { POST: postGrant } },
  { path: '/api/admin/apps/:appId/users/:userId/missions/:missionId/reset', handlers: { POST: postMissionReset } },
  { path: '/api/admin/apps/:appId/users/:userId/missions/:missionId/complete', handlers: { POST: postMissionComplete } },
  { path: '/api/admin/apps/:appId/users/:userId/notes', handlers: { GET: getNotes, POST: postNote } },
  { path: '/api/admin/apps/:appId/users/:userId/export', handlers: { GET: getUserExport } },
  { path: '/api/admin/apps/:appId/missions', handlers: { GET: getMissions, POST: postMission } },
  { path: '/api/admin/apps/:appId/missions/:missionId', handlers: { GET: getAdminMission, PUT: putMission } },
  { path: '/api/admin/apps/:appId/missions/:missionId/progress', handlers: { GET: getMissionProgressHandler } },
  { path: '/api/admin/apps/:appId/missions/:missionId/duplicate', handlers: { POST: postDuplicateMission } },
  { path: '/api/admin/apps/:appId/missions/:missionId/archive', handlers: { POST: postArchiveMission } },
  { path: '/api/admin/apps/:appId/missions/:missionId/unarchive', handlers: { POST: postUnarchiveMission } },
  { path: '/api/admin/apps/:appId/event-names', handlers: { GET: getEventNames } },
  { path: '/api/admin/apps/:appId/event-payload-fields', handlers: { GET: getPayloadFields } },
  { path: '/api/admin/audit', handlers: { GET: getAudit } },
  { path: '/api/admin/backup', handlers: { GET: getBackup } },
  { path: '/api/admin/apps/:appId/themes', handlers: { GET: getThemes, POST: postTheme } },
  { path: '/api/admin/apps/:appId/themes/:themeId', handlers: { GET: getThemeItem, PUT: putTheme, DELETE: deleteThemeItem } },
  { path: '/api/admin/apps/:appId/campaigns', handlers: { GET: getCampaigns, POST: postCampaign } },
  { path: '/api/admin/apps/:appId/campaigns/:campaignId', handlers: { GET: getCampaignItem, PUT: putCampaign, DELETE: deleteCampaignItem } },
  { path: '/api/admin/apps/:appId/endpoints', handlers: { GET: getEndpoints, POST: postEndpoint } },
  { path: '/api/admin/apps/:appId/endpoints/:endpointId', handlers: { DELETE: deleteEndpointItem } },
  { path: '/api/admin/apps/:appId/endpoints/:endpointId/deliveries', handlers: { GET: getDeliveries } },
  { path: '/api/admin/apps/:appId/endpoints/:endpointId/deliveries/:deliveryId/redeliver', handlers: { POST: postRedeliver } },
];

/** For operators and orchestrators: liveness, readiness, Prometheus metrics (no CORS). */
export const opsRoutes: RouteEntry[] = [
  { path: '/api/health', handlers: { GET: getHealth } },
  { path: '/api/ready', handlers: { GET: getReady } },
  { path: '/api/metrics', handlers: { GET: getMetrics } },
];

const ALL_METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The route label of answers to paths outside the table (access log, metrics). */
const UNMATCHED_ROUTE = '(unmatched)';

export const notFound: Handler = observe(UNMATCHED_ROUTE, errorRoute('not_found'));
/** Unknown /api/admin paths: the same 404, without CORS. */
export const adminNotFound: Handler = observe(UNMATCHED_ROUTE, errorRoute('not_found', false));

/** A route's handlers by method, plus the answer to any other method (TRACE, PROPFIND…: 405 with Allow). */
export type EndpointHandlers = Record<Method | 'OPTIONS', Handler> & { otherMethod: Handler };

/**
 * The exports of one route file: its handlers, 405 with `Allow` for the other
 * methods, each answer observed under `route`. OPTIONS: under /v1 a CORS
 * preflight, and a plain OPTIONS answers 204 with `Allow` (OPTIONS included);
 * elsewhere (admin, ops: no CORS) OPTIONS is one more method not allowed, so
 * `Allow` never lists it there. HEAD is served wherever GET is.
 */
export function endpoint(handlers: MethodHandlers, cors: boolean, route: string): EndpointHandlers {
  const methods = Object.keys(handlers) as Method[];
  const allow = [...(methods.includes('GET') ? ['GET', 'HEAD'] : []), ...methods.filter((m) => m !== 'GET'), ...(cors ? ['OPTIONS'] : [])].join(', ');
  const notAllowed = errorRoute('method_not_allowed', cors, allow);
  const out = {} as EndpointHandlers;
  for (const method of ALL_METHODS) out[method] = observe(route, handlers[method] ?? notAllowed);
  out.OPTIONS = observe(route, async (req: Request, ctx: RouteContext) => {
    if (!cors) return notAllowed(req, ctx);
    if (isPreflight(req)) return preflightResponse(requestIdOf(req));
    return withCors(new Response(null, { status: 204, headers: { Allow: allow, 'X-Request-Id': requestIdOf(req) } }));
  });
  out.otherMethod = observe(route, notAllowed);
  return out;
}

/** Every entry: /v1, admin and ops. */
export const allRoutes: RouteEntry[] = [...v1Routes, ...adminRoutes, ...opsRoutes];

/** The route file exports for a path of the tables above (only /v1 routes get CORS). */
export function routeEndpoint(path: string): EndpointHandlers {
  const entry = allRoutes.find((r) => r.path === path);
  if (!entry) throw new Error(`No route ${path} in lib/http/routes.ts`);
  return endpoint(entry.handlers, path.startsWith('/v1/'), path);
}

/** Matches a path against the table; params are URI-decoded. */
export function matchRoute(routes: RouteEntry[], pathname: string): { entry: RouteEntry; params: Record<string, string> } | null {
  const parts = pathname.replace(/\/+$/, '').split('/');
  for (const entry of routes) {
    const pattern = entry.path.split('/');
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < pattern.length && ok; i++) {
      if (pattern[i].startsWith(':')) {
        try {
          params[pattern[i].slice(1)] = decodeURIComponent(parts[i]);
        } catch {
          ok = false;
        }
        ok = ok && parts[i].length > 0;
      } else ok = pattern[i] === parts[i];
    }
    if (ok) return { entry, params };
  }
  return null;
}
