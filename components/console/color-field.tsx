'use client';

// A colour: the browser's native picker beside a hex field (type a value, or
// pick one). Optional colours can be cleared back to "not set".
import * as React from 'react';
import { XIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';

/** #rgb → #rrggbb (the native picker only takes the long form); anything else as is, or null. */
function longHex(value: string | undefined): string | null {
  if (!value) return null;
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase();
  return /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : null;
}

export interface ColorFieldProps extends Omit<React.ComponentProps<'input'>, 'value' | 'onChange' | 'defaultValue'> {
  value: string | undefined;
  onChange(value: string | undefined): void;
  /** The colour the picker starts from while the field is empty. */
  fallback?: string;
  /** Accessible name of the picker and the hex field (the label names the hex field too). */
  label: string;
  optional?: boolean;
}

/** Spread FormControl's props onto this: the hex field gets the id, aria-invalid and aria-describedby. */
export function ColorField({ value, onChange, fallback = '#7c3aed', label, optional, className, disabled, ...props }: ColorFieldProps) {
  const swatch = longHex(value) ?? fallback;
  const unset = optional === true && (value === undefined || value === '');
  return (
    <div className={cn('flex items-center gap-2', className)}>
      {/* Not set: the picker shows an empty, struck-through swatch (not the fallback colour it opens at). */}
      <span className="relative h-9 w-11 shrink-0">
        <input
          type="color"
          aria-label={`${label}: picker${unset ? ' (not set)' : ''}`}
          value={swatch}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
          data-unset={unset || undefined}
          className={cn(
            'h-9 w-11 cursor-pointer rounded-md border border-input bg-background p-1 disabled:cursor-not-allowed disabled:opacity-50',
            unset && 'opacity-0',
          )}
        />
        {unset && (
          <span
            aria-hidden
            data-testid="color-unset"
            className="pointer-events-none absolute inset-0 rounded-md border border-dashed border-input bg-background bg-[linear-gradient(to_top_right,transparent_calc(50%-1px),var(--color-muted-foreground)_50%,transparent_calc(50%+1px))]"
          />
        )}
      </span>
      <Input
        {...props}
        disabled={disabled}
        value={value ?? ''}
        placeholder={optional ? 'Not set' : '#7c3aed'}
        spellCheck={false}
        autoComplete="off"
        className="font-mono"
        onChange={(e) => {
          const next = e.target.value.trim();
          onChange(next === '' && optional ? undefined : next);
        }}
      />
      {optional && value !== undefined && !disabled && (
        <Button type="button" variant="ghost" size="icon-sm" aria-label={`Clear ${label}`} onClick={() => onChange(undefined)}>
          <XIcon aria-hidden />
        </Button>
      )}
    </div>
  );
}
