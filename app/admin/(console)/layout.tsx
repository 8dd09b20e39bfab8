// Every console page: signed-in staff only (else the sign-in page), in the shell.
import type { ReactNode } from 'react';
import { AppShell } from '@/components/console/app-shell';
import { ConsoleProviders } from '@/components/console/providers';
import { StaffProvider } from '@/components/console/staff-context';
import { requireStaff } from '@/lib/console/guard';

export const dynamic = 'force-dynamic';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const staff = await requireStaff();
  return (
    <ConsoleProviders>
      <StaffProvider staff={staff}>
        <AppShell>{children}</AppShell>
      </StaffProvider>
    </ConsoleProviders>
  );
}
