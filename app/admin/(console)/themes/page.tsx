// /admin/themes – the selected app's theme presets (catalog.read; editing needs catalog.write).
import type { Metadata } from 'next';
import { Forbidden } from '@/components/console/forbidden';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/console/guard';
import { ThemesScreen } from './themes-screen';

export const metadata: Metadata = { title: 'Themes' };

export default async function ThemesPage() {
  const staff = await requireStaff();
  if (!can(staff.role, 'catalog.read')) return <Forbidden screen="Themes" capability="catalog.read" role={staff.role} />;
  return <ThemesScreen />;
}
