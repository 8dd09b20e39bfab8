// /admin/releases – the selected app's releases: who published what, when; restore one into the draft (catalog.read; restoring needs catalog.write).
import type { Metadata } from 'next';
import { Forbidden } from '@/components/console/forbidden';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/console/guard';
import { ReleasesScreen } from './releases-screen';

export const metadata: Metadata = { title: 'Releases' };

export default async function ReleasesPage() {
  const staff = await requireStaff();
  if (!can(staff.role, 'catalog.read')) return <Forbidden screen="Releases" capability="catalog.read" role={staff.role} />;
  return <ReleasesScreen />;
}
