// /admin/staff – staff accounts and roles (admin).
import type { Metadata } from 'next';
import { Forbidden } from '@/components/console/forbidden';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/console/guard';
import { StaffScreen } from './staff-screen';

export const metadata: Metadata = { title: 'Staff' };

export default async function StaffPage() {
  const staff = await requireStaff();
  if (!can(staff.role, 'staff.manage')) return <Forbidden screen="Staff" capability="staff.manage" role={staff.role} />;
  return <StaffScreen />;
}
