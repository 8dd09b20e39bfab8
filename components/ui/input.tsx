import * as React from 'react';
import { cn } from '@/lib/cn';
import { focusRing } from './button';

export const inputClass = `flex h-9 w-full min-w-0 rounded-md border border-input bg-background px-3 py-1 text-sm shadow-xs transition-colors placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:opacity-50 [&[readonly]]:bg-muted/50 aria-invalid:border-destructive aria-invalid:ring-destructive/25 ${focusRing}`;

export function Input({ className, type = 'text', ...props }: React.ComponentProps<'input'>) {
  return <input data-slot="input" type={type} className={cn(inputClass, 'file:border-0 file:bg-transparent file:text-sm file:font-medium', className)} {...props} />;
}

export function Textarea({ className, ...props }: React.ComponentProps<'textarea'>) {
  return <textarea data-slot="textarea" className={cn(inputClass, 'min-h-20 py-2', className)} {...props} />;
}
