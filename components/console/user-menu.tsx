'use client';

import * as React from 'react';
import { ChevronsUpDownIcon, KeyRoundIcon, LogOutIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { focusRing } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { ROLE_LABELS } from '@/lib/auth/roles';
import { authClient } from '@/lib/console/auth-client';
import { cn } from '@/lib/cn';
import { ChangePasswordDialog } from './change-password-dialog';
import { useStaff } from './staff-context';

function initials(name: string, email: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 0 ? words.slice(0, 2).map((w) => w[0]) : [email[0]];
  return letters.join('').toUpperCase();
}

/** The signed-in staff member, with sign out and password change. */
export function UserMenu() {
  const { staff } = useStaff();
  const [changing, setChanging] = React.useState(false);
  const signOut = async () => {
    const { error } = await authClient.signOut();
    if (error) toast.error(error.message ?? 'Could not sign out');
    else {
      // A full page load on purpose: nothing of the signed-out session (query cache, staff) survives into the sign-in page.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign('/admin/sign-in');
    }
  };
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          className={cn('flex w-full items-center gap-3 rounded-lg p-2 text-left transition-colors hover:bg-sidebar-accent', focusRing)}
        >
          <span className="sr-only">Account:</span>
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary/15 text-xs font-semibold text-primary" aria-hidden>
            {initials(staff.name, staff.email)}
          </span>
          <span className="min-w-0 flex-1">
            <span className="block truncate text-sm font-medium">{staff.name}</span>
            <span className="block truncate text-xs text-muted-foreground">{staff.email}</span>
          </span>
          <ChevronsUpDownIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" side="top" className="w-60">
          <DropdownMenuLabel className="flex items-center justify-between gap-2">
            <span className="truncate">{staff.email}</span>
            <Badge variant="secondary">{ROLE_LABELS[staff.role]}</Badge>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setChanging(true)}>
            <KeyRoundIcon aria-hidden />
            Change password
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={signOut}>
            <LogOutIcon aria-hidden />
            Sign out
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <ChangePasswordDialog open={changing} onOpenChange={setChanging} />
    </>
  );
}
