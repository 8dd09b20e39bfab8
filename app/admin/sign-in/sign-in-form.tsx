'use client';

import * as React from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { AlertCircleIcon, Loader2Icon } from 'lucide-react';
import { Alert, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Form } from '@/components/ui/form';
import { TextFormField } from '@/components/ui/form-fields';
import { authClient } from '@/lib/console/auth-client';

const schema = z.object({
  email: z.string().trim().min(1, { error: 'Enter your e-mail address' }),
  password: z.string().min(1, { error: 'Enter your password' }),
});
type Values = z.infer<typeof schema>;

function failure(status: number, message: string | undefined): string {
  if (status === 401) return 'Wrong e-mail address or password.';
  if (status === 429) return 'Too many failed attempts. Wait a few minutes, then try again.';
  return message ?? 'Could not sign in; try again.';
}

export function SignInForm({ next }: { next: string }) {
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { email: '', password: '' } });
  const [error, setError] = React.useState<string | null>(null);
  const [leaving, setLeaving] = React.useState(false);
  const submit = form.handleSubmit(async ({ email, password }) => {
    setError(null);
    const { error: failed } = await authClient.signIn.email({ email, password });
    if (failed) {
      setError(failure(failed.status, failed.message));
      form.setFocus('password');
      return;
    }
    // A full navigation, so the server layout sees the new session cookie.
    setLeaving(true);
    window.location.assign(next);
  });
  const busy = form.formState.isSubmitting || leaving;
  return (
    <Form {...form}>
      <form onSubmit={submit} className="grid gap-4" noValidate>
        {error && (
          <Alert variant="destructive">
            <AlertCircleIcon aria-hidden />
            <AlertTitle>{error}</AlertTitle>
          </Alert>
        )}
        <TextFormField control={form.control} name="email" label="Email" type="email" autoComplete="username" autoFocus placeholder="you@studio.com" />
        <TextFormField control={form.control} name="password" label="Password" type="password" autoComplete="current-password" />
        <Button type="submit" className="mt-1 w-full" disabled={busy}>
          {busy && <Loader2Icon className="animate-spin" aria-hidden />}
          Sign in
        </Button>
      </form>
    </Form>
  );
}
