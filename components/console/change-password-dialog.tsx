'use client';

import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { toast } from 'sonner';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { TextFormField } from '@/components/ui/form-fields';
import { DialogFormFooter } from '@/components/console/dialog-form-footer';
import { authClient } from '@/lib/console/auth-client';
import { staffPasswordSchema, STAFF_PASSWORD_MIN } from '@/lib/contract/staff';

const schema = z
  .object({ currentPassword: z.string().min(1, { error: 'Enter your current password' }), newPassword: staffPasswordSchema, confirm: z.string() })
  .refine((v) => v.newPassword === v.confirm, { path: ['confirm'], error: 'The two new passwords differ' });
type Values = z.infer<typeof schema>;

export function ChangePasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { currentPassword: '', newPassword: '', confirm: '' } });
  const submit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    const { error } = await authClient.changePassword({ currentPassword, newPassword, revokeOtherSessions: true });
    if (error) {
      form.setError(error.status === 400 ? 'currentPassword' : 'root', { message: error.message ?? 'Could not change the password' });
      return;
    }
    toast.success('Password changed; your other sessions were signed out');
    form.reset();
    onOpenChange(false);
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Change password</DialogTitle>
          <DialogDescription>Your other sessions are signed out.</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={submit} className="grid gap-4" noValidate>
            {(
              [
                ['currentPassword', 'Current password', 'current-password', undefined],
                ['newPassword', 'New password', 'new-password', `At least ${STAFF_PASSWORD_MIN} characters.`],
                ['confirm', 'Repeat the new password', 'new-password', undefined],
              ] as const
            ).map(([name, label, autoComplete, hint]) => (
              <TextFormField key={name} control={form.control} name={name} label={label} description={hint} type="password" autoComplete={autoComplete} />
            ))}
            <DialogFormFooter submitLabel="Change password" pending={form.formState.isSubmitting} onCancel={() => onOpenChange(false)} error={form.formState.errors.root?.message} />
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
