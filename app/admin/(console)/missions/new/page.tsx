// /admin/missions/new – author a mission (editor, admin).
import type { Metadata } from 'next';
import { Forbidden } from '@/components/console/forbidden';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/console/guard';
import { MissionEditor } from '../mission-editor';

export const metadata: Metadata = { title: 'New mission' };

export default async function NewMissionPage() {
  const staff = await requireStaff();
  if (!can(staff.role, 'catalog.write')) return <Forbidden screen="Mission editing" capability="catalog.write" role={staff.role} />;
  return <MissionEditor />;
}
