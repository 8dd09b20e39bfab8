'use client';

// react-hook-form in the shadcn/ui manner: <Form {...form}> then one <FormField>
// per field; label, control, description and message are wired together with
// ids and aria attributes. Validate with the API's own zod schema:
//   const form = useForm({ resolver: zodResolver(createStaffSchema), defaultValues })
import * as React from 'react';
import { Slot } from 'radix-ui';
import { Controller, FormProvider, useFormContext, useFormState, type ControllerProps, type FieldPath, type FieldValues } from 'react-hook-form';
import { cn } from '@/lib/cn';
import { Label } from './label';

export const Form = FormProvider;

const FieldContext = React.createContext<{ name: string } | null>(null);
const ItemContext = React.createContext<{ id: string } | null>(null);

export function FormField<TValues extends FieldValues, TName extends FieldPath<TValues>, TTransformed = TValues>(props: ControllerProps<TValues, TName, TTransformed>) {
  return (
    <FieldContext.Provider value={{ name: props.name }}>
      <Controller {...props} />
    </FieldContext.Provider>
  );
}

function useFormField() {
  const field = React.useContext(FieldContext);
  const item = React.useContext(ItemContext);
  const { getFieldState } = useFormContext();
  const formState = useFormState({ name: field?.name });
  if (!field || !item) throw new Error('useFormField belongs inside <FormField> and <FormItem>');
  const state = getFieldState(field.name, formState);
  return {
    name: field.name,
    controlId: `${item.id}-control`,
    descriptionId: `${item.id}-description`,
    messageId: `${item.id}-message`,
    ...state,
  };
}

export function FormItem({ className, ...props }: React.ComponentProps<'div'>) {
  const id = React.useId();
  return (
    <ItemContext.Provider value={{ id }}>
      <div data-slot="form-item" className={cn('grid content-start gap-2', className)} {...props} />
    </ItemContext.Provider>
  );
}

export function FormLabel({ className, ...props }: React.ComponentProps<typeof Label>) {
  const { error, controlId } = useFormField();
  return <Label data-slot="form-label" data-error={!!error} className={cn('data-[error=true]:text-destructive', className)} htmlFor={controlId} {...props} />;
}

export function FormControl(props: React.ComponentProps<typeof Slot.Root>) {
  const { error, controlId, descriptionId, messageId } = useFormField();
  return (
    <Slot.Root
      data-slot="form-control"
      id={controlId}
      aria-describedby={error ? `${descriptionId} ${messageId}` : descriptionId}
      aria-invalid={!!error}
      {...props}
    />
  );
}

export function FormDescription({ className, ...props }: React.ComponentProps<'p'>) {
  const { descriptionId } = useFormField();
  return <p data-slot="form-description" id={descriptionId} className={cn('text-[13px] text-muted-foreground', className)} {...props} />;
}

export function FormMessage({ className, children, ...props }: React.ComponentProps<'p'>) {
  const { error, messageId } = useFormField();
  const body = error ? String(error.message ?? '') : children;
  if (!body) return null;
  return (
    <p data-slot="form-message" id={messageId} role="alert" className={cn('text-[13px] font-medium text-destructive', className)} {...props}>
      {body}
    </p>
  );
}
