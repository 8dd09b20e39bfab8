// /admin/missions – the app's missions: search, filters, create, edit, duplicate, archive.
import type { Metadata } from 'next';
import { Forbidden } from '@/components/console/forbidden';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/console/guard';
import { MissionsScreen } from './missions-screen';

export const metadata: Metadata = { title: 'Missions' };

export default async function MissionsPage() {
  const staff = await requireStaff();
  if (!can(staff.role, 'catalog.read')) return <Forbidden screen="Missions" capability="catalog.read" role={staff.role} />;
  return <MissionsScreen />;
}
