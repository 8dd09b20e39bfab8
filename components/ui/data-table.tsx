'use client';

// Lists in the console: TanStack Table with sortable headers, a search box
// over every column, optional extra filters in the toolbar, loading and empty
// states. Column definitions live beside the page that shows them.
import * as React from 'react';
import {
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type ColumnFiltersState,
  type SortingState,
  type Table as TanTable,
} from '@tanstack/react-table';
import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon, SearchIcon } from 'lucide-react';
import { cn } from '@/lib/cn';
import { focusRing } from './button';
import { Input } from './input';
import { Skeleton } from './skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from './table';

export interface DataTableProps<T> {
  columns: ColumnDef<T, unknown>[];
  data: T[] | undefined;
  isLoading?: boolean;
  /** Names the table for assistive technology. */
  label: string;
  /** Placeholder of the search box; no search box when absent. */
  searchPlaceholder?: string;
  /** Extra filters (selects, toggles) shown beside the search box. */
  toolbar?: (table: TanTable<T>) => React.ReactNode;
  /** Shown when there are no rows at all (not when a search matches nothing). */
  empty?: React.ReactNode;
  initialSorting?: SortingState;
  getRowId?: (row: T) => string;
}

export function DataTable<T>({ columns, data, isLoading, label, searchPlaceholder, toolbar, empty, initialSorting = [], getRowId }: DataTableProps<T>) {
  const [sorting, setSorting] = React.useState<SortingState>(initialSorting);
  const [globalFilter, setGlobalFilter] = React.useState('');
  const [columnFilters, setColumnFilters] = React.useState<ColumnFiltersState>([]);
  // TanStack Table keeps each row's column values until its data changes. Columns that read something
  // beside the row (the time now, a lookup that answered later) are new when that changes: a new rows
  // array then, so sorting and filtering use the values as the cells show them.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `columns` is the reason to copy
  const rows = React.useMemo(() => (data ?? []).slice(), [data, columns]);
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting, globalFilter, columnFilters },
    onSortingChange: setSorting,
    onGlobalFilterChange: setGlobalFilter,
    onColumnFiltersChange: setColumnFilters,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getRowId,
  });
  const visible = table.getRowModel().rows;
  const showToolbar = searchPlaceholder || toolbar;

  return (
    <div className="space-y-3">
      {showToolbar && (
        <div className="flex flex-wrap items-center gap-2">
          {searchPlaceholder && (
            <div className="relative w-full max-w-xs">
              <SearchIcon className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
              <Input
                type="search"
                aria-label={searchPlaceholder}
                placeholder={searchPlaceholder}
                value={globalFilter}
                onChange={(e) => setGlobalFilter(e.target.value)}
                className="pl-8"
              />
            </div>
          )}
          {toolbar?.(table)}
        </div>
      )}
      <div className="overflow-hidden rounded-xl border bg-card shadow-xs">
        <Table aria-label={label} aria-busy={isLoading || undefined}>
          <TableHeader>
            {table.getHeaderGroups().map((group) => (
              <TableRow key={group.id} className="hover:bg-transparent">
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const canSort = header.column.getCanSort();
                  const title = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
                  return (
                    <TableHead
                      key={header.id}
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : canSort ? 'none' : undefined}
                      style={header.column.columnDef.size !== 150 ? { width: header.column.columnDef.size } : undefined}
                    >
                      {canSort ? (
                        <button
                          type="button"
                          onClick={header.column.getToggleSortingHandler()}
                          className={cn('-ml-1.5 inline-flex items-center gap-1 rounded px-1.5 py-1 uppercase hover:text-foreground', focusRing)}
                        >
                          {title}
                          {sorted === 'asc' ? <ArrowUpIcon className="size-3.5" aria-hidden /> : sorted === 'desc' ? <ArrowDownIcon className="size-3.5" aria-hidden /> : <ArrowUpDownIcon className="size-3.5 opacity-40" aria-hidden />}
                        </button>
                      ) : (
                        title
                      )}
                    </TableHead>
                  );
                })}
              </TableRow>
            ))}
          </TableHeader>
          <TableBody>
            {isLoading && !data ? (
              Array.from({ length: 3 }, (_, i) => (
                <TableRow key={`loading-${i}`} className="hover:bg-transparent">
                  {columns.map((_, j) => (
                    <TableCell key={j}>
                      <Skeleton className="h-4 w-full max-w-40" />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            ) : visible.length > 0 ? (
              visible.map((row) => (
                <TableRow key={row.id}>
                  {row.getVisibleCells().map((cell) => (
                    <TableCell key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</TableCell>
                  ))}
                </TableRow>
              ))
            ) : (
              <TableRow className="hover:bg-transparent">
                <TableCell colSpan={columns.length} className="p-0">
                  {rows.length === 0 && empty ? empty : <p className="px-4 py-10 text-center text-sm text-muted-foreground">Nothing matches the search.</p>}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}

/**
 * A first column naming the row: its name, its id in small monospace under
 * it; search finds either, sorting goes by name.
 */
export function nameColumn<T extends { id: string }>(id: string, header: string, nameOf: (row: T) => string): ColumnDef<T, unknown> {
  return {
    id,
    accessorFn: (row) => `${nameOf(row)} ${row.id}`,
    header,
    sortingFn: (a, b) => nameOf(a.original).localeCompare(nameOf(b.original)),
    cell: ({ row }) => (
      <div className="min-w-0">
        <p className="font-medium">{nameOf(row.original)}</p>
        <p className="font-mono text-xs text-muted-foreground">{row.original.id}</p>
      </div>
    ),
  };
}
