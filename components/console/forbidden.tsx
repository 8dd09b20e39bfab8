import Link from 'next/link';
import { ShieldOffIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { CAPABILITIES, ROLE_LABELS, type Capability, type StaffRole } from '@/lib/auth/roles';

/** What a page shows to a role that may not use it (the API refuses it too). */
export function Forbidden({ screen, capability, role }: { screen: string; capability: Capability; role: StaffRole }) {
  const allowed = CAPABILITIES[capability].map((r) => ROLE_LABELS[r]).join(' or ');
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-4 py-20 text-center">
      <div className="flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <ShieldOffIcon className="size-5" aria-hidden />
      </div>
      <h1 className="text-xl font-semibold">You don’t have access to {screen}</h1>
      <p className="text-sm text-muted-foreground">
        Your role is {ROLE_LABELS[role]}. {screen} is for {allowed}; ask an admin if you need it.
      </p>
      <Button variant="outline" asChild>
        <Link href="/admin">Back to the dashboard</Link>
      </Button>
    </div>
  );
}
