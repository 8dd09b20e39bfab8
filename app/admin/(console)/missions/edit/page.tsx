// /admin/missions/edit?app=…&id=… – change a mission (editor, admin).
import type { Metadata } from 'next';
import { Forbidden } from '@/components/console/forbidden';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/console/guard';
import { MissionEditor } from '../mission-editor';

export const metadata: Metadata = { title: 'Edit mission' };

export default async function EditMissionPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaff();
  if (!can(staff.role, 'catalog.write')) return <Forbidden screen="Mission editing" capability="catalog.write" role={staff.role} />;
  const { id } = await searchParams;
  return <MissionEditor missionId={typeof id === 'string' ? id : undefined} />;
}
