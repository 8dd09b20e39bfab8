// A list of catalog changes (a draft against live, a release against the one before): kind, id, added/changed/removed.
import { Badge } from '@/components/ui/badge';
import type { CatalogChange } from '@/lib/contract/release';

// Removed is outlined, not red: the destructive tint fails contrast (axe) at badge size.
const CHANGE_BADGE = { added: 'success', changed: 'default', removed: 'outline' } as const;
const KIND_LABEL = { mission: 'Mission', campaign: 'Campaign', theme: 'Theme', currency: 'Currency', item: 'Item' } as const;

export function CatalogChanges({ changes, label }: { changes: CatalogChange[]; label: string }) {
  if (changes.length === 0) return <p className="text-sm text-muted-foreground">No change.</p>;
  return (
    <ul aria-label={label} className="grid gap-1.5">
      {changes.map((c) => (
        <li key={`${c.kind}:${c.id}`} className="flex flex-wrap items-center gap-2 text-sm">
          <Badge variant={CHANGE_BADGE[c.change]}>{c.change}</Badge>
          <span className="text-muted-foreground">{KIND_LABEL[c.kind]}</span>
          <span className="font-mono">{c.id}</span>
        </li>
      ))}
    </ul>
  );
}
