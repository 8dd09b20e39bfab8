// A staff account removed (DELETE /api/admin/staff/:staffId), audited; its
// sessions and password go with it (foreign keys cascade). Nobody removes
// their own account, and the last admin stays (409 conflict).
import { eq } from 'drizzle-orm';
import { staff } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import type { StaffMember } from '@/lib/contract/staff';
import { AppError } from '@/lib/errors';
import { findStaff, lockAdmins, refuseLastAdmin, toStaffMember } from '@/lib/staff/staff';
import { actorLabel, withTransaction, type ServiceContext } from '../context';

export async function removeStaff({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<StaffMember> {
  if (ctx.actor.staffId === input.id) throw new AppError('conflict', 'You cannot remove your own account');
  const now = ctx.now();
  return withTransaction(ctx, async ({ uow: { tx } }) => {
    const admins = await lockAdmins(tx);
    const row = await findStaff(tx, input.id);
    refuseLastAdmin(row, admins, 'removed');
    await tx.delete(staff).where(eq(staff.id, input.id));
    const removed = toStaffMember(row);
    await recordAudit(tx, { actor: actorLabel(ctx.actor), action: 'staff.remove', appId: null, target: `staff:${removed.email}`, before: removed }, now);
    return removed;
  });
}
