// Server-side gate of the console's pages (server components only): the
// signed-in staff member, or a redirect to the sign-in page. The admin API
// checks every request on its own; this keeps pages from rendering at all.
import { cache } from 'react';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { boot } from '@/lib/boot';
import { getSignedInStaff, type SignedInStaff } from '@/lib/auth/staff-session';

/** Once per request, however many layouts and pages ask. */
export const currentStaff = cache(async (): Promise<SignedInStaff | null> => {
  await boot();
  return getSignedInStaff(await headers());
});

export async function requireStaff(): Promise<SignedInStaff> {
  const staff = await currentStaff();
  if (!staff) redirect('/admin/sign-in');
  return staff;
}

/** Where to go after signing in: a console path only (never another site). */
export function safeNext(next: string | string[] | undefined): string {
  const value = Array.isArray(next) ? next[0] : next;
  return value && /^\/admin(\/|\?|$)/.test(value) && !value.startsWith('/admin/sign-in') ? value : '/admin';
}
