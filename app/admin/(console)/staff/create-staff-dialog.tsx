'use client';

import * as React from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UserPlusIcon } from 'lucide-react';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { ControlledFormField, TextFormField } from '@/components/ui/form-fields';
import { DialogFormFooter } from '@/components/console/dialog-form-footer';
import { adminFetch, ApiError, errorMessage, queryKeys } from '@/components/console/api';
import { createStaffSchema, STAFF_PASSWORD_MIN, type CreatedStaff } from '@/lib/contract/staff';
import { ROLE_DESCRIPTIONS } from '@/lib/auth/roles';
import { RoleSelect } from './role-select';

// The API's schema, with an empty password field meaning "generate one".
const formSchema = createStaffSchema.extend({ password: z.union([z.literal(''), createStaffSchema.shape.password.unwrap()]) });
type FormInput = z.input<typeof formSchema>;
type FormValues = z.output<typeof formSchema>;

export function CreateStaffDialog({ onCreated }: { onCreated(created: CreatedStaff): void }) {
  const [open, setOpen] = React.useState(false);
  const queryClient = useQueryClient();
  const form = useForm<FormInput, unknown, FormValues>({ resolver: zodResolver(formSchema), defaultValues: { email: '', name: '', role: 'editor', password: '' } });
  const create = useMutation({
    mutationFn: ({ password, ...rest }: FormValues) => adminFetch<CreatedStaff>('/api/admin/staff', { method: 'POST', body: password ? { ...rest, password } : rest }),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.staff });
      setOpen(false);
      form.reset();
      onCreated(created);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'conflict') form.setError('email', { message: 'This address has an account already' });
      else form.setError('root', { message: errorMessage(err) });
    },
  });
  const role = form.watch('role');
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <UserPlusIcon aria-hidden />
          Add staff
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add a staff member</DialogTitle>
          <DialogDescription>They sign in at /admin with this e-mail address and password.</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={form.handleSubmit((v) => create.mutate(v))} className="grid gap-4" noValidate>
            <TextFormField control={form.control} name="name" label="Name" autoComplete="off" placeholder="Sam Rivera" />
            <TextFormField control={form.control} name="email" label="Email" type="email" autoComplete="off" placeholder="sam@studio.com" />
            <ControlledFormField
              control={form.control}
              name="role"
              label="Role"
              description={ROLE_DESCRIPTIONS[role]}
              render={(field) => <RoleSelect value={field.value} onChange={field.onChange} />}
            />
            <TextFormField
              control={form.control}
              name="password"
              label="Password"
              description={`At least ${STAFF_PASSWORD_MIN} characters. Leave empty to generate one, shown once.`}
              type="password"
              autoComplete="new-password"
            />
            <DialogFormFooter submitLabel="Add staff member" pending={create.isPending} onCancel={() => setOpen(false)} error={form.formState.errors.root?.message} />
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
