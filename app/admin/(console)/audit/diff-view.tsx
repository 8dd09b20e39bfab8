'use client';

// One audit entry's before and after, field by field: what was added, removed
// or changed (unchanged fields on request).
import * as React from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/cn';
import { diffRows, formatValue, type DiffKind } from '@/lib/console/diff';

const KIND_LABEL: Record<DiffKind, string> = { added: 'Added', removed: 'Removed', changed: 'Changed', unchanged: 'Same' };
const KIND_VARIANT: Record<DiffKind, 'success' | 'destructive' | 'warning' | 'secondary'> = { added: 'success', removed: 'destructive', changed: 'warning', unchanged: 'secondary' };

export function DiffView({ before, after }: { before: unknown; after: unknown }) {
  const [showAll, setShowAll] = React.useState(false);
  const rows = React.useMemo(() => diffRows(before, after), [before, after]);
  const changed = rows.filter((r) => r.kind !== 'unchanged');
  const shown = showAll ? rows : changed;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
        <span>
          {changed.length === 1 ? '1 field changed' : `${changed.length} fields changed`}
          {rows.length > changed.length && `, ${rows.length - changed.length} the same`}
        </span>
        {rows.length > changed.length && (
          <Button type="button" variant="ghost" size="sm" aria-pressed={showAll} onClick={() => setShowAll((v) => !v)}>
            {showAll ? 'Hide unchanged fields' : 'Show unchanged fields'}
          </Button>
        )}
      </div>
      <div className="max-h-[60vh] overflow-auto rounded-lg border">
        <Table aria-label="Changes">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Field</TableHead>
              <TableHead>Before</TableHead>
              <TableHead>After</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {shown.length === 0 ? (
              <TableRow className="hover:bg-transparent">
                <TableCell colSpan={3} className="py-6 text-center text-muted-foreground">
                  Nothing recorded.
                </TableCell>
              </TableRow>
            ) : (
              shown.map((row) => (
                <TableRow key={row.path} data-kind={row.kind}>
                  <TableCell className="align-top">
                    <div className="flex flex-col items-start gap-1">
                      <code className="font-mono text-xs">{row.path}</code>
                      <Badge variant={KIND_VARIANT[row.kind]}>{KIND_LABEL[row.kind]}</Badge>
                    </div>
                  </TableCell>
                  <TableCell className={cn('align-top font-mono text-xs wrap-break-word whitespace-pre-wrap', (row.kind === 'removed' || row.kind === 'changed') && 'bg-destructive/8')}>
                    {row.kind === 'added' ? <span className="text-muted-foreground">—</span> : <del className="no-underline">{formatValue(row.before)}</del>}
                  </TableCell>
                  <TableCell className={cn('align-top font-mono text-xs wrap-break-word whitespace-pre-wrap', (row.kind === 'added' || row.kind === 'changed') && 'bg-success/10')}>
                    {row.kind === 'removed' ? <span className="text-muted-foreground">—</span> : <ins className="no-underline">{formatValue(row.after)}</ins>}
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
