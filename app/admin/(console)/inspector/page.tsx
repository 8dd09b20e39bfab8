// /admin/inspector – one player's missions, balances, ledger and events, with why each event counted or not (support).
import type { Metadata } from 'next';
import { Forbidden } from '@/components/console/forbidden';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/console/guard';
import { InspectorScreen } from './inspector-screen';

export const metadata: Metadata = { title: 'Inspector' };

export default async function InspectorPage() {
  const staff = await requireStaff();
  if (!can(staff.role, 'players.read')) return <Forbidden screen="Inspector" capability="players.read" role={staff.role} />;
  return <InspectorScreen />;
}
