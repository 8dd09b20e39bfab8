// Builds a verb's ServiceContext once per request: the app (checked to exist
// on admin requests), the actor (staff member, admin key, player or the app's
// backend), the clock, the request id and the process's dependencies. The only
// place a handler reaches the process's dependencies: lib/http never imports
// db/ (eslint.config.mjs).
import { serviceNow } from '@/lib/clock';
import { findApp } from '@/lib/apps/apps';
import type { AdminIdentity } from '@/lib/auth/admin';
import type { TokenClaims } from '@/lib/auth/jwt';
import { AppError } from '@/lib/errors';
import type { Actor, ServiceContext } from '@/lib/services/context';
import { processServiceDeps } from '@/lib/service-deps';

/** What the context needs of an admin request (lib/http/handler.ts's AdminContext). */
interface AdminRequest {
  admin: AdminIdentity;
  requestId: string;
}

function actorOf(admin: AdminIdentity): Actor {
  return admin.staff ? { kind: 'staff', id: admin.staff.email, role: admin.role, staffId: admin.staff.id } : { kind: 'admin-key', id: 'admin-api-key', role: admin.role };
}

/** The context of a request on `appId` (404 app_not_found when the app does not exist). */
export async function adminServiceContext(req: AdminRequest, appId: string): Promise<ServiceContext> {
  const deps = await processServiceDeps();
  if (!(await findApp(deps.db, appId))) throw new AppError('app_not_found', `No app "${appId}"`);
  return { appId, actor: actorOf(req.admin), now: serviceNow, requestId: req.requestId, deps };
}

/** The context of an admin request about no single app (apps, staff, the audit log): appId is ''. */
export async function staffServiceContext(req: AdminRequest): Promise<ServiceContext> {
  return { appId: '', actor: actorOf(req.admin), now: serviceNow, requestId: req.requestId, deps: await processServiceDeps() };
}

/** The context of a request made with the app secret (token request, signed webhook): the app's backend acts. */
export async function appServiceContext(appId: string, requestId: string): Promise<ServiceContext> {
  return {
    appId,
    actor: { kind: 'system', id: 'app-backend', role: null },
    now: serviceNow,
    requestId,
    deps: await processServiceDeps(),
  };
}

/** The context of a /v1 request with a player's token: the token's app, the player acts. */
export async function userServiceContext(auth: Pick<TokenClaims, 'appId' | 'userId'>, requestId: string): Promise<ServiceContext> {
  return { appId: auth.appId, actor: { kind: 'user', id: auth.userId, role: null }, now: serviceNow, requestId, deps: await processServiceDeps() };
}

/** The context of a request with no caller (readiness): the service itself acts, on no app. */
export async function systemServiceContext(requestId: string): Promise<ServiceContext> {
  return { appId: '', actor: { kind: 'system', id: 'service', role: null }, now: serviceNow, requestId, deps: await processServiceDeps() };
}

/**
 * The database of the process's dependencies, built only when called: the
 * token check (lib/auth/revocation.ts) asks for it only when the key-value
 * store cannot answer alone (a re-warm, or the store unreachable).
 */
export async function databaseOnDemand(): Promise<ServiceContext['deps']['db']> {
  return (await processServiceDeps()).db;
}
