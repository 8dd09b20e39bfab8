'use client';

// Rows of path · operator · value in the filter language of lib/contract/filter.ts
// (the engine's operators), as a controlled editor: the audience builder of the
// mission and campaign forms uses it over user attributes, with the same
// operators and value reading as the mission's criteria filter rows
// (lib/console/mission-form.ts: rowsToFilter / filterToRows).
import * as React from 'react';
import { PlusIcon, Trash2Icon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FilterSelect } from '@/components/ui/select';
import { FILTER_OPERATORS, OPERATOR_LABELS, type FilterRow } from '@/lib/console/mission-form';

const OPERATOR_OPTIONS = FILTER_OPERATORS.map((op) => ({
  value: op,
  label: (
    <>
      {OPERATOR_LABELS[op]} <span className="font-mono text-xs text-muted-foreground">({op})</span>
    </>
  ),
}));

/** A path the rows may suggest, with example values seen for it (GET …/event-payload-fields). */
export interface PathSuggestion {
  path: string;
  examples: ReadonlyArray<string | number | boolean | null>;
}

/** How an example value is typed into a row: strings as they are, the rest as JSON (3, true, null). */
const exampleText = (value: string | number | boolean | null) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The browser's suggestions for a row: paths for the path box, the chosen path's examples for the value box. */
export function SuggestionLists({ id, suggestions, rows }: { id: string; suggestions: readonly PathSuggestion[]; rows: ReadonlyArray<{ path: string }> }) {
  const byPath = new Map(suggestions.map((s) => [s.path, s]));
  return (
    <>
      <datalist id={`${id}-paths`}>
        {suggestions.map((s) => (
          <option key={s.path} value={s.path} label={s.examples.length > 0 ? `e.g. ${s.examples.map(exampleText).join(', ')}` : undefined} />
        ))}
      </datalist>
      {rows.map((row, i) => (
        <datalist key={i} id={`${id}-values-${i}`}>
          {(byPath.get(row.path.trim())?.examples ?? []).map((v) => (
            <option key={exampleText(v)} value={exampleText(v)} />
          ))}
        </datalist>
      ))}
    </>
  );
}

const VALUE_PLACEHOLDERS: Partial<Record<string, string>> = { exists: 'true or false', in: 'ios, android', nin: 'ios, android' };

export function FilterRowsEditor({
  rows,
  onChange,
  noun,
  pathLabel,
  pathPlaceholder,
  valuePlaceholder,
  suggestions = [],
}: {
  rows: FilterRow[];
  onChange(rows: FilterRow[]): void;
  /** "Audience rule": names each row for screen readers ("Audience rule 1 operator"). */
  noun: string;
  pathLabel: string;
  pathPlaceholder: string;
  valuePlaceholder: string;
  /** Paths (with example values) offered as the browser's suggestions; none by default. */
  suggestions?: readonly PathSuggestion[];
}) {
  const listId = React.useId();
  const suggest = suggestions.length > 0;
  const set = (i: number, patch: Partial<FilterRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div className="grid gap-2">
      {rows.map((row, i) => (
        <div key={i} className="grid items-center gap-2 rounded-lg border bg-muted/30 p-3 sm:grid-cols-[minmax(0,1fr)_11rem_minmax(0,1fr)_auto]" role="group" aria-label={`${noun} ${i + 1}`}>
          <Input
            value={row.path}
            onChange={(e) => set(i, { path: e.target.value })}
            aria-label={`${noun} ${i + 1} ${pathLabel.toLowerCase()}`}
            placeholder={pathPlaceholder}
            list={suggest ? `${listId}-paths` : undefined}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
          />
          <FilterSelect label={`${noun} ${i + 1} operator`} value={row.op} onChange={(op) => set(i, { op: op as FilterRow['op'] })} options={OPERATOR_OPTIONS} className="h-9 w-full" />
          <Input
            value={row.value}
            onChange={(e) => set(i, { value: e.target.value })}
            aria-label={`${noun} ${i + 1} value`}
            placeholder={VALUE_PLACEHOLDERS[row.op] ?? valuePlaceholder}
            list={suggest ? `${listId}-values-${i}` : undefined}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
          />
          <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${noun.toLowerCase()} ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            <Trash2Icon aria-hidden />
          </Button>
        </div>
      ))}
      {suggest && <SuggestionLists id={listId} suggestions={suggestions} rows={rows} />}
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => onChange([...rows, { path: '', op: 'eq', value: '' }])}>
          <PlusIcon aria-hidden />
          Add {noun.toLowerCase()}
        </Button>
      </div>
    </div>
  );
}
