// Every staff account, by e-mail, as the admin API shows it (never a password).
import { asc } from 'drizzle-orm';
import { staff } from '@/db/schema';
import type { StaffMember } from '@/lib/contract/staff';
import { toStaffMember } from '@/lib/staff/staff';
import type { ServiceContext } from '../context';

export async function listStaff({ ctx }: { ctx: ServiceContext; input?: Record<string, never> }): Promise<StaffMember[]> {
  return (await ctx.deps.db.select().from(staff).orderBy(asc(staff.email))).map(toStaffMember);
}
