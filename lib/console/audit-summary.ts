// The one line the audit list shows under an entry's action: a grant's amount,
// currency and reason ("+50 gold: Ticket #4411"), else the reason staff gave
// (resets, completions, erasures), else nothing.
import type { AuditEntry } from '@/lib/contract/audit';

const record = (value: unknown): Record<string, unknown> | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null);

export function auditSummary(entry: Pick<AuditEntry, 'action' | 'after'>): string | null {
  const after = record(entry.after);
  if (!after) return null;
  const reason = typeof after.reason === 'string' ? after.reason : null;
  if (entry.action === 'user.grant' && typeof after.change === 'number' && typeof after.currency === 'string') {
    const amount = `${after.change > 0 ? '+' : ''}${after.change.toLocaleString('en')} ${after.currency}`;
    return reason ? `${amount}: ${reason}` : amount;
  }
  return reason;
}
