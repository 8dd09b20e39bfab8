// /admin/sign-in – staff sign in (e-mail and password); signed-in visitors go straight on.
import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { Logo } from '@/components/console/logo';
import { ConsoleProviders } from '@/components/console/providers';
import { getConfig } from '@/lib/config';
import { currentStaff, safeNext } from '@/lib/console/guard';
import { EMBEDDED_ADMIN_EMAIL } from '@/lib/staff/bootstrap';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = safeNext((await searchParams).next);
  if (await currentStaff()) redirect(next);
  const config = getConfig();
  // On the embedded default, say where the first admin's password is (never the password).
  const firstSignInHint = config.embedded && !config.firstAdmin;
  return (
    <ConsoleProviders>
      <main className="flex min-h-dvh flex-col items-center justify-center bg-muted/40 px-4 py-12">
        <div className="w-full max-w-sm space-y-6">
          <div className="flex flex-col items-center gap-3 text-center">
            <Logo className="size-10" />
            <div className="space-y-1">
              <h1 className="text-xl font-semibold tracking-tight">Sign in to Questline</h1>
              <p className="text-sm text-muted-foreground">The console for live-ops and support staff</p>
            </div>
          </div>
          <div className="rounded-xl border bg-card p-6 shadow-sm">
            <SignInForm next={next} />
          </div>
          {firstSignInHint && (
            <p className="text-center text-xs leading-relaxed text-muted-foreground">
              First sign-in: <span className="font-mono text-foreground">{EMBEDDED_ADMIN_EMAIL}</span> with the password printed at start-up (also in{' '}
              <span className="font-mono">.data/admin-password</span>).
            </p>
          )}
          <p className="text-center text-xs text-muted-foreground">
            <Link href="/" className="underline-offset-4 hover:text-foreground hover:underline">
              What is Questline?
            </Link>
            <span aria-hidden> · </span>
            <a href="/docs" className="underline-offset-4 hover:text-foreground hover:underline">
              API reference
            </a>
          </p>
        </div>
      </main>
    </ConsoleProviders>
  );
}
