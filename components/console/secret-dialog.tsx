'use client';

// Secrets are answered once by the API and never again: this dialog shows
// them with a copy button each and says so. Closing it forgets them.
import { TriangleAlertIcon } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';

export interface ShownSecret {
  label: string;
  value: string;
  hint?: string;
}

export function SecretDialog({
  title,
  description,
  secrets,
  onClose,
}: {
  title: string;
  description: string;
  secrets: ShownSecret[] | null;
  onClose(): void;
}) {
  return (
    <Dialog open={secrets !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-xl" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <Alert variant="warning">
          <TriangleAlertIcon aria-hidden />
          <AlertTitle>Shown only once</AlertTitle>
          <AlertDescription>Copy {secrets && secrets.length > 1 ? 'them' : 'it'} now: Questline keeps no readable copy and cannot show {secrets && secrets.length > 1 ? 'them' : 'it'} again.</AlertDescription>
        </Alert>
        <div className="grid gap-4">
          {secrets?.map((secret) => (
            <div key={secret.label} className="grid gap-1.5">
              <p className="text-sm font-medium">{secret.label}</p>
              <div className="flex items-center gap-2">
                <code data-testid="secret-value" className="min-w-0 flex-1 select-all break-all rounded-md border bg-muted/60 px-3 py-2 font-mono text-[13px]">
                  {secret.value}
                </code>
                <CopyButton value={secret.value} label={`Copy ${secret.label}`} />
              </div>
              {secret.hint && <p className="text-[13px] text-muted-foreground">{secret.hint}</p>}
            </div>
          ))}
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Done, I have stored {secrets && secrets.length > 1 ? 'them' : 'it'}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
