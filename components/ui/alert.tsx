import * as React from 'react';
import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '@/lib/cn';

const alertVariants = cva('relative grid w-full grid-cols-[auto_1fr] items-start gap-x-3 gap-y-1 rounded-lg border px-4 py-3 text-sm [&>svg]:mt-0.5 [&>svg]:size-4', {
  variants: {
    variant: {
      default: 'bg-card text-card-foreground',
      warning: 'border-warning/40 bg-warning/8 [&>svg]:text-warning',
      destructive: 'border-destructive/40 bg-destructive/6 text-destructive [&>svg]:text-destructive',
    },
  },
  defaultVariants: { variant: 'default' },
});

/** An inline message in the page's flow (errors, warnings, "shown once" notices). */
export function Alert({ className, variant, ...props }: React.ComponentProps<'div'> & VariantProps<typeof alertVariants>) {
  return <div data-slot="alert" role={variant === 'destructive' ? 'alert' : 'status'} className={cn(alertVariants({ variant }), className)} {...props} />;
}

export function AlertTitle({ className, ...props }: React.ComponentProps<'div'>) {
  return <div className={cn('col-start-2 font-medium leading-5', className)} {...props} />;
}

export function AlertDescription({ className, ...props }: React.ComponentProps<'div'>) {
  return <div className={cn('col-start-2 text-muted-foreground [&_p]:leading-relaxed', className)} {...props} />;
}
