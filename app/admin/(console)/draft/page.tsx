// /admin/draft – the selected app's draft catalog: its changes against live, publish now or on schedule, discard (catalog.read; writing needs catalog.write).
import type { Metadata } from 'next';
import { Forbidden } from '@/components/console/forbidden';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/console/guard';
import { DraftScreen } from './draft-screen';

export const metadata: Metadata = { title: 'Draft' };

export default async function DraftPage() {
  const staff = await requireStaff();
  if (!can(staff.role, 'catalog.read')) return <Forbidden screen="Draft" capability="catalog.read" role={staff.role} />;
  return <DraftScreen />;
}
