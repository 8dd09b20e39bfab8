// /admin/economy – the selected app's currencies and items (catalog.read; editing needs catalog.write).
import type { Metadata } from 'next';
import { Forbidden } from '@/components/console/forbidden';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/console/guard';
import { EconomyScreen } from './economy-screen';

export const metadata: Metadata = { title: 'Economy' };

export default async function EconomyPage() {
  const staff = await requireStaff();
  if (!can(staff.role, 'catalog.read')) return <Forbidden screen="Economy" capability="catalog.read" role={staff.role} />;
  return <EconomyScreen />;
}
