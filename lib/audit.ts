// The audit log: who did what, when, with the state before and after. Written
// in the same transaction as the change it records. Read newest first, by
// filters, a page at a time (keyset on the id).
import { and, desc, eq, gte, ilike, like, lt, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { auditLog } from '@/db/schema';
import type { AuditPage, AuditQuery } from '@/lib/contract/audit';

export interface AuditEntry {
  actor: string;
  action: string;
  appId: string | null;
  target: string;
  before?: unknown;
  after?: unknown;
}

export async function recordAudit(db: DbOrTx, entry: AuditEntry, now = Date.now()): Promise<void> {
  await db.insert(auditLog).values({
    at: now,
    actor: entry.actor,
    action: entry.action,
    appId: entry.appId,
    target: entry.target,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listAudit(db: DbOrTx, query: AuditQuery): Promise<AuditPage> {
  const where: SQL[] = [];
  if (query.appId) where.push(eq(auditLog.appId, query.appId));
  if (query.actor) where.push(ilike(auditLog.actor, `%${escapeLike(query.actor)}%`));
  if (query.entity) where.push(like(auditLog.target, `${escapeLike(query.entity)}:%`));
  if (query.target) where.push(eq(auditLog.target, query.target));
  if (query.userId) where.push(eq(auditLog.target, `user:${query.userId}`));
  if (query.from !== undefined) where.push(gte(auditLog.at, query.from));
  if (query.to !== undefined) where.push(lt(auditLog.at, query.to));
  if (query.before !== undefined) where.push(lt(auditLog.id, query.before));
  const rows = await db
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
