// /admin/audit – who changed what and when, with before and after (admin, support).
import type { Metadata } from 'next';
import { Forbidden } from '@/components/console/forbidden';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/console/guard';
import { AuditScreen } from './audit-screen';

export const metadata: Metadata = { title: 'Audit log' };

export default async function AuditPage() {
  const staff = await requireStaff();
  if (!can(staff.role, 'audit.read')) return <Forbidden screen="the audit log" capability="audit.read" role={staff.role} />;
  return <AuditScreen />;
}
