'use client';

// The last column of a table: a "…" button per row opening the row's actions.
// The button's accessible name says which row it acts on; a destructive
// action after others comes after a separator (or any action marked so).
import * as React from 'react';
import Link from 'next/link';
import type { ColumnDef } from '@tanstack/react-table';
import { MoreHorizontalIcon, type LucideIcon } from 'lucide-react';
import { Button } from './button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from './dropdown-menu';

export interface RowAction {
  label: string;
  icon: LucideIcon;
  /** What choosing it does; or `href`, a page it opens (a link, so it opens in a new tab too). */
  onSelect?(): void;
  href?: string;
  destructive?: boolean;
  disabled?: boolean;
  /** A separator before it; by default before a destructive action that is not the first. */
  separated?: boolean;
}

function RowActions({ label, actions }: { label: string; actions: RowAction[] }) {
  return (
    <div className="flex justify-end">
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon-sm" aria-label={label}>
            <MoreHorizontalIcon aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          {actions.map(({ label: text, icon: Icon, onSelect, href, destructive, disabled, separated }, i) => (
            <React.Fragment key={text}>
              {(separated ?? (destructive && i > 0)) && <DropdownMenuSeparator />}
              {href ? (
                <DropdownMenuItem asChild destructive={destructive} disabled={disabled}>
                  <Link href={href}>
                    <Icon aria-hidden />
                    {text}
                  </Link>
                </DropdownMenuItem>
              ) : (
                <DropdownMenuItem destructive={destructive} disabled={disabled} onSelect={onSelect}>
                  <Icon aria-hidden />
                  {text}
                </DropdownMenuItem>
              )}
            </React.Fragment>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}

/** The actions column: `label` names each row's button ("Actions for …"), `actions` lists what the row offers. */
export function actionsColumn<T>(label: (row: T) => string, actions: (row: T) => RowAction[]): ColumnDef<T, unknown> {
  return {
    id: 'actions',
    header: () => <span className="sr-only">Actions</span>,
    size: 56,
    enableSorting: false,
    cell: ({ row }) => <RowActions label={label(row.original)} actions={actions(row.original)} />,
  };
}
