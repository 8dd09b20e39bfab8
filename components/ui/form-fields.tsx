'use client';

// The common shapes of a form field, built on ./form: a label, one control
// (wired to the label, the description and the message by id and aria
// attributes), an optional description, the field's message. Each takes the
// form's `control` and the field's `name`:
//   <TextFormField control={form.control} name="title" label="Title" placeholder="Spring Festival" />
// A field of another shape uses <ControlledFormField render={(field) => …}>.
import * as React from 'react';
import type { Control, ControllerRenderProps, FieldPath, FieldValues } from 'react-hook-form';
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from './form';
import { Input, Textarea } from './input';
import { Select, SelectOptions, SelectTrigger, SelectValue, type SelectOption } from './select';

interface FieldFrame<TValues extends FieldValues, TName extends FieldPath<TValues>, TOut> {
  control: Control<TValues, unknown, TOut>;
  name: TName;
  label: React.ReactNode;
  labelClassName?: string;
  description?: React.ReactNode;
}

type Field<TValues extends FieldValues, TName extends FieldPath<TValues>> = ControllerRenderProps<TValues, TName>;

/** Label, the control `render` draws for the field, description, message. */
export function ControlledFormField<TValues extends FieldValues, TName extends FieldPath<TValues>, TOut = TValues>({
  control,
  name,
  label,
  labelClassName,
  description,
  render,
}: FieldFrame<TValues, TName, TOut> & { render: (field: Field<TValues, TName>) => React.ReactElement }) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel className={labelClassName}>{label}</FormLabel>
          <FormControl>{render(field)}</FormControl>
          {description !== undefined && <FormDescription>{description}</FormDescription>}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

type InputProps = Omit<React.ComponentProps<typeof Input>, 'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'ref'>;

/** A text input (or any `type` of <input>); `onValueChange` sees each new value after the form has it. */
export function TextFormField<TValues extends FieldValues, TName extends FieldPath<TValues>, TOut = TValues>({
  control,
  name,
  label,
  labelClassName,
  description,
  onValueChange,
  ...inputProps
}: FieldFrame<TValues, TName, TOut> & InputProps & { onValueChange?: (value: string) => void }) {
  return (
    <ControlledFormField
      control={control}
      name={name}
      label={label}
      labelClassName={labelClassName}
      description={description}
      render={(field) => (
        <Input
          {...inputProps}
          {...field}
          value={field.value ?? ''}
          onChange={(e) => {
            field.onChange(e);
            onValueChange?.(e.target.value);
          }}
        />
      )}
    />
  );
}

/** A whole number of at least `min` (1 by default), kept as typed (the schema names a bad one). */
export function NumberFormField<TValues extends FieldValues, TName extends FieldPath<TValues>, TOut = TValues>(props: React.ComponentProps<typeof TextFormField<TValues, TName, TOut>>) {
  return <TextFormField type="number" inputMode="numeric" min={1} step={1} {...props} />;
}

type TextareaProps = Omit<React.ComponentProps<typeof Textarea>, 'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'ref'>;

export function TextareaFormField<TValues extends FieldValues, TName extends FieldPath<TValues>, TOut = TValues>({
  control,
  name,
  label,
  labelClassName,
  description,
  ...textareaProps
}: FieldFrame<TValues, TName, TOut> & TextareaProps) {
  return (
    <ControlledFormField
      control={control}
      name={name}
      label={label}
      labelClassName={labelClassName}
      description={description}
      render={(field) => <Textarea {...textareaProps} {...field} value={field.value ?? ''} />}
    />
  );
}

/** One of `options`, in the console's select (the trigger is the labelled control; `triggerLabel` overrides its name). */
export function SelectFormField<TValues extends FieldValues, TName extends FieldPath<TValues>, TOut = TValues>({
  control,
  name,
  label,
  labelClassName,
  description,
  options,
  triggerLabel,
}: FieldFrame<TValues, TName, TOut> & { options: readonly SelectOption[]; triggerLabel?: string }) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel className={labelClassName}>{label}</FormLabel>
          <Select value={field.value} onValueChange={field.onChange}>
            <FormControl>
              <SelectTrigger aria-label={triggerLabel} onBlur={field.onBlur}>
                <SelectValue />
              </SelectTrigger>
            </FormControl>
            <SelectOptions options={options} />
          </Select>
          {description !== undefined && <FormDescription>{description}</FormDescription>}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}
