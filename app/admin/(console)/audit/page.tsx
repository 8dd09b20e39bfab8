// /admin/audit – who changed what and when, with before and after (admin, support); ?user=<id>&app=<id> filter to one player.
import type { Metadata } from 'next';
import { Forbidden } from '@/components/console/forbidden';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/console/guard';
import { AuditScreen } from './audit-screen';

export const metadata: Metadata = { title: 'Audit log' };

export default async function AuditPage({ searchParams }: { searchParams: Promise<{ user?: string | string[]; app?: string | string[] }> }) {
  const { user, app } = await searchParams;
  const staff = await requireStaff();
  if (!can(staff.role, 'audit.read')) return <Forbidden screen="the audit log" capability="audit.read" role={staff.role} />;
  // ?user=&app= (the Inspector links here) open the log filtered to that player.
  return <AuditScreen initialUserId={typeof user === 'string' ? user : ''} initialAppId={typeof app === 'string' ? app : ''} />;
}
