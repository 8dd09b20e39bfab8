// The audit log read newest first, by filters (app, actor, entity, target,
// player, time range), a page at a time (keyset on the id).
import { and, desc, eq, gte, ilike, like, lt, type SQL } from 'drizzle-orm';
import { auditLog } from '@/db/schema';
import type { AuditPage, AuditQuery } from '@/lib/contract/audit';
import type { ServiceContext } from '../context';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listAudit({ ctx, input: query }: { ctx: ServiceContext; input: AuditQuery }): Promise<AuditPage> {
  const where: SQL[] = [];
  if (query.appId) where.push(eq(auditLog.appId, query.appId));
  if (query.actor) where.push(ilike(auditLog.actor, `%${escapeLike(query.actor)}%`));
  if (query.entity) where.push(like(auditLog.target, `${escapeLike(query.entity)}:%`));
  if (query.target) where.push(eq(auditLog.target, query.target));
  if (query.userId) where.push(eq(auditLog.target, `user:${query.userId}`));
  if (query.from !== undefined) where.push(gte(auditLog.at, query.from));
  if (query.to !== undefined) where.push(lt(auditLog.at, query.to));
  if (query.before !== undefined) where.push(lt(auditLog.id, query.before));
  const rows = await ctx.deps.db
    .select()
    .from(auditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    entries: page.map((r) => ({ id: r.id, at: r.at, actor: r.actor, action: r.action, appId: r.appId, target: r.target, before: r.before ?? null, after: r.after ?? null })),
    nextCursor: rows.length > query.limit ? page[page.length - 1].id : null,
  };
}
