// Builds a verb's ServiceContext once per admin request: the app (checked to
// exist), the staff member or admin key as the actor, the clock, the request
// id and the process's dependencies. The only place an admin handler of the
// desk, the drafts and the app backend's writes reach the global getters.
import { serviceNow } from '@/lib/clock';
import { getApp } from '@/lib/apps/apps';
import { AppError } from '@/lib/errors';
import type { Actor, ServiceContext } from '@/lib/services/context';
import { processServiceDeps } from '@/lib/service-deps';
import type { AdminContext } from './handler';

function actorOf(admin: AdminContext['admin']): Actor {
  return admin.staff ? { kind: 'staff', id: admin.staff.email, role: admin.role } : { kind: 'admin-key', id: 'admin-api-key', role: admin.role };
}

/** The context of a request on `appId` (404 app_not_found when the app does not exist). */
export async function adminServiceContext(req: AdminContext, appId: string): Promise<ServiceContext> {
  if (!(await getApp(appId))) throw new AppError('app_not_found', `No app "${appId}"`);
  return {
    appId,
    actor: actorOf(req.admin),
    now: serviceNow,
    requestId: req.requestId,
    deps: await processServiceDeps(),
  };
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
