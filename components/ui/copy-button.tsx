'use client';

import * as React from 'react';
import { CheckIcon, CopyIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Button, type ButtonProps } from './button';

async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  // Plain-HTTP LAN addresses have no Clipboard API: fall back to a selected textarea.
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}

/** Copies `value`; says so with a check mark and a toast. `label` names what is copied, for screen readers. */
export function CopyButton({ value, label = 'Copy', variant = 'outline', size = 'sm', ...props }: { value: string; label?: string } & Omit<ButtonProps, 'onClick' | 'value'>) {
  const [copied, setCopied] = React.useState(false);
  React.useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      variant={variant}
      size={size}
      aria-label={label}
      onClick={async () => {
        try {
          await writeClipboard(value);
          setCopied(true);
          toast.success('Copied to the clipboard');
        } catch {
          toast.error('Could not copy: select the text and copy it by hand');
        }
      }}
      {...props}
    >
      {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
      {size === 'icon' || size === 'icon-sm' ? null : copied ? 'Copied' : 'Copy'}
    </Button>
  );
}
