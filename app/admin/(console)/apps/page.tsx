// /admin/apps – apps and their secrets (admin).
import type { Metadata } from 'next';
import { Forbidden } from '@/components/console/forbidden';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/console/guard';
import { AppsScreen } from './apps-screen';

export const metadata: Metadata = { title: 'Apps' };

export default async function AppsPage() {
  const staff = await requireStaff();
  if (!can(staff.role, 'apps.manage')) return <Forbidden screen="Apps" capability="apps.manage" role={staff.role} />;
  return <AppsScreen />;
}
