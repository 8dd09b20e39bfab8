// /admin/campaigns – the selected app's campaigns on a timeline and in a table (catalog.read; editing needs catalog.write).
import type { Metadata } from 'next';
import { Forbidden } from '@/components/console/forbidden';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/console/guard';
import { CampaignsScreen } from './campaigns-screen';

export const metadata: Metadata = { title: 'Campaigns' };

export default async function CampaignsPage() {
  const staff = await requireStaff();
  if (!can(staff.role, 'catalog.read')) return <Forbidden screen="Campaigns" capability="catalog.read" role={staff.role} />;
  return <CampaignsScreen />;
}
