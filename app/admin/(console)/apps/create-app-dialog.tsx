'use client';

import * as React from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PlusIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { TextFormField } from '@/components/ui/form-fields';
import { DialogFormFooter } from '@/components/console/dialog-form-footer';
import { adminFetch, ApiError, errorMessage, queryKeys } from '@/components/console/api';
import { createAppSchema, type CreateAppInput, type PublicApp } from '@/lib/contract/app';

export interface CreatedApp {
  app: PublicApp;
  appSecret: string;
  webhookSecret: string;
}

/** "New app": id and name, validated with the API's own schema; answers the secrets once. */
export function CreateAppDialog({ onCreated }: { onCreated(created: CreatedApp): void }) {
  const [open, setOpen] = React.useState(false);
  const queryClient = useQueryClient();
  const form = useForm<CreateAppInput>({ resolver: zodResolver(createAppSchema), defaultValues: { id: '', name: '' } });
  const create = useMutation({
    mutationFn: (input: CreateAppInput) => adminFetch<CreatedApp>('/api/admin/apps', { method: 'POST', body: input }),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.apps });
      setOpen(false);
      form.reset();
      onCreated(created);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'conflict') form.setError('id', { message: 'An app with this id exists already' });
      else form.setError('root', { message: errorMessage(err) });
    },
  });
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
          <PlusIcon aria-hidden />
          New app
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New app</DialogTitle>
          <DialogDescription>An app is one game: its own players, missions, campaigns and secrets.</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={form.handleSubmit((v) => create.mutate(v))} className="grid gap-4" noValidate>
            <TextFormField control={form.control} name="name" label="Name" placeholder="Star Raiders" autoComplete="off" />
            <TextFormField
              control={form.control}
              name="id"
              label="App ID"
              description="Used by your backend to get tokens. Letters, digits and _ . : - only; it cannot change later."
              placeholder="star-raiders"
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
            />
            <DialogFormFooter submitLabel="Create app" pending={create.isPending} onCancel={() => setOpen(false)} error={form.formState.errors.root?.message} />
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
