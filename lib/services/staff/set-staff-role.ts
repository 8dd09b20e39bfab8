// A staff member's role changed (PATCH /api/admin/staff/:staffId), audited; the
// last admin cannot be demoted (409 conflict). The same role again is no change.
import { eq } from 'drizzle-orm';
import { staff } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import type { StaffMember, UpdateStaffInput } from '@/lib/contract/staff';
import { findStaff, lockAdmins, refuseLastAdmin, toStaffMember } from '@/lib/staff/staff';
import { actorLabel, withTransaction, type ServiceContext } from '../context';

export async function setStaffRole({ ctx, input }: { ctx: ServiceContext; input: UpdateStaffInput & { id: string } }): Promise<StaffMember> {
  const now = ctx.now();
  return withTransaction(ctx, async ({ uow: { tx } }) => {
    const admins = await lockAdmins(tx);
    const before = await findStaff(tx, input.id);
    if (before.role === input.role) return toStaffMember(before);
    if (input.role !== 'admin') refuseLastAdmin(before, admins, 'demoted');
    const [row] = await tx.update(staff).set({ role: input.role, updatedAt: new Date(now) }).where(eq(staff.id, input.id)).returning();
    const after = toStaffMember(row);
    await recordAudit(tx, { actor: actorLabel(ctx.actor), action: 'staff.set_role', appId: null, target: `staff:${after.email}`, before: { role: before.role }, after: { role: after.role } }, now);
    return after;
  });
}
