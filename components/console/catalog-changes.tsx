// A list of catalog changes (a draft against live, a release against the one before): kind, id, added/changed/removed;
// with `details` (the draft's changeDetails), each change's fields before → after under it.
import { Badge } from '@/components/ui/badge';
import { formatDateTime } from '@/components/console/format';
import { fieldChangeText } from '@/lib/console/field-change-label';
import type { CatalogChange, CatalogChangeDetail, FieldChange } from '@/lib/contract/release';

// Removed is outlined, not red: the destructive tint fails contrast (axe) at badge size.
const CHANGE_BADGE = { added: 'success', changed: 'default', removed: 'outline' } as const;
const KIND_LABEL: Record<string, string> = { mission: 'Mission', campaign: 'Campaign', theme: 'Theme', currency: 'Currency', item: 'Item' };
/** An added or removed item lists every field: the first few are enough to recognise it. */
const FIELDS_SHOWN = 6;

/** Fields an added or removed item is recognised by come first. */
const FIRST = ['title', 'reward', 'rewards', 'criteria.eventName', 'criteria.count', 'campaignId', 'startAt', 'endAt', 'name'];
const rank = (path: string) => (FIRST.includes(path) ? FIRST.indexOf(path) : FIRST.length);

/** A changed item: every field. An added or removed one: the fields with a value (an empty description, `archived: false` say nothing), the telling ones first. */
function readable(change: CatalogChange['change'], fields: FieldChange[]): FieldChange[] {
  if (change === 'changed') return fields;
  const empty = (v: unknown) => v === null || v === '' || v === false || (Array.isArray(v) && v.length === 0);
  return fields.filter((f) => !(empty(f.before) && empty(f.after))).sort((a, b) => rank(a.path) - rank(b.path));
}

export function CatalogChanges({ changes, label, details }: { changes: CatalogChange[]; label: string; details?: CatalogChangeDetail[] }) {
  if (changes.length === 0) return <p className="text-sm text-muted-foreground">No change.</p>;
  const fieldsOf = new Map((details ?? []).map((d) => [`${d.kind}:${d.id}`, d.fields]));
  return (
    <ul aria-label={label} className="grid gap-1.5">
      {changes.map((c) => {
        const fields = readable(c.change, fieldsOf.get(`${c.kind}:${c.id}`) ?? []);
        const shown = c.change === 'changed' ? fields : fields.slice(0, FIELDS_SHOWN);
        return (
          <li key={`${c.kind}:${c.id}`} className="grid gap-1 text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={CHANGE_BADGE[c.change]}>{c.change}</Badge>
              <span className="text-muted-foreground">{KIND_LABEL[c.kind] ?? c.kind}</span>
              <span className="font-mono">{c.id}</span>
            </div>
            {shown.length > 0 && (
              <div className="grid gap-0.5 border-l pl-3 text-xs text-muted-foreground" data-testid={`fields-${c.kind}-${c.id}`}>
                {shown.map((f) => (
                  <p key={f.path}>{fieldChangeText(f, formatDateTime)}</p>
                ))}
                {shown.length < fields.length && <p>… and {fields.length - shown.length} more fields</p>}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
