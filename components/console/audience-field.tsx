'use client';

// The audience builder of the mission and campaign forms: who the mission (or
// every mission of the campaign) exists for, as rules over the user
// attributes the game backend sets (token request, webhook `users`). Same
// operators and value reading as the criteria filter rows; empty: everyone.
import * as React from 'react';
import { FilterRowsEditor } from '@/components/console/filter-rows';
import { filterToRows, rowsToFilter, type FilterRow } from '@/lib/console/mission-form';

type Audience = Record<string, unknown> | undefined;

export function AudienceField({ value, onChange, error, subject }: { value: Audience; onChange(value: Audience): void; error?: string; subject: 'mission' | 'campaign' }) {
  const [rows, setRows] = React.useState<FilterRow[]>(() => filterToRows(value));
  // A value set from outside (the form loaded or reset) replaces the rows; the rows' own edits round-trip unchanged.
  const emitted = React.useRef<string>(JSON.stringify(value ?? null));
  React.useEffect(() => {
    const incoming = JSON.stringify(value ?? null);
    if (incoming !== emitted.current) {
      emitted.current = incoming;
      setRows(filterToRows(value));
    }
  }, [value]);
  const change = (next: FilterRow[]) => {
    setRows(next);
    const audience = rowsToFilter(next.filter((r) => r.path.trim() !== ''));
    emitted.current = JSON.stringify(audience ?? null);
    onChange(audience);
  };
  const id = React.useId();
  return (
    <fieldset className="grid gap-3" aria-describedby={`${id}-hint`}>
      <legend className="mb-1 text-sm font-medium">Audience</legend>
      <p id={`${id}-hint`} className="text-[13px] text-muted-foreground">
        Rules over the player’s attributes (set by your backend with the token request or the webhook); every rule must match. Outside the audience the {subject}
        {subject === 'campaign' ? ' and its missions do' : ' does'} not exist for the player.
      </p>
      {rows.length === 0 && <p className="text-sm text-muted-foreground">No audience: every player.</p>}
      <FilterRowsEditor rows={rows} onChange={change} noun="Audience rule" pathLabel="Attribute" pathPlaceholder="platform" valuePlaceholder="ios" />
      {error && (
        <p role="alert" className="text-[13px] font-medium text-destructive">
          {error.replace(/^Invalid input: /, '')}
        </p>
      )}
    </fieldset>
  );
}
