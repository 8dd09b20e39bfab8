// The audit log: who did what, when, with the state before and after. Written
// in the same transaction as the change it records (read by
// lib/services/audit/list-audit.ts).
import type { DbOrTx } from '@/db/client';
import { auditLog } from '@/db/schema';

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
