// The foot of a dialog's form: the root error the form was refused with (if
// any), then Cancel and the submit button (disabled while the save is pending).
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { cn } from '@/lib/cn';

export function DialogFormFooter({ submitLabel, pending, onCancel, error, className }: { submitLabel: string; pending: boolean; onCancel(): void; error?: string; className?: string }) {
  return (
    <>
      {error !== undefined && (
        <p role="alert" className={cn('text-sm text-destructive', className)}>
          {error}
        </p>
      )}
      <DialogFooter className={className}>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {submitLabel}
        </Button>
      </DialogFooter>
    </>
  );
}
