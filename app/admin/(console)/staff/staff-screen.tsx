'use client';

import * as React from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { ShieldIcon, Trash2Icon, UsersIcon } from 'lucide-react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DataTable } from '@/components/ui/data-table';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { actionsColumn } from '@/components/ui/row-actions';
import { FilterSelect } from '@/components/ui/select';
import { adminFetch, errorMessage, queryKeys } from '@/components/console/api';
import { formatDate } from '@/components/console/format';
import { SecretDialog } from '@/components/console/secret-dialog';
import { useStaff } from '@/components/console/staff-context';
import { ROLE_LABELS, STAFF_ROLES, type StaffRole } from '@/lib/auth/roles';
import type { CreatedStaff, StaffMember } from '@/lib/contract/staff';
import { CreateStaffDialog } from './create-staff-dialog';
import { RoleDescription, RoleSelect } from './role-select';

const ROLE_BADGE: Record<StaffRole, 'default' | 'success' | 'secondary'> = { admin: 'default', editor: 'success', support: 'secondary' };

function columns(selfId: string, onRole: (m: StaffMember) => void, onRemove: (m: StaffMember) => void): ColumnDef<StaffMember, unknown>[] {
  return [
    {
      id: 'member',
      accessorFn: (m) => `${m.name} ${m.email}`,
      header: 'Member',
      sortingFn: (a, b) => a.original.name.localeCompare(b.original.name),
      cell: ({ row }) => (
        <div className="min-w-0">
          <p className="font-medium">
            {row.original.name}
            {row.original.id === selfId && <span className="ml-2 text-xs font-normal text-muted-foreground">(you)</span>}
          </p>
          <p className="text-xs text-muted-foreground">{row.original.email}</p>
        </div>
      ),
    },
    {
      accessorKey: 'role',
      header: 'Role',
      filterFn: 'equals',
      cell: ({ row }) => <Badge variant={ROLE_BADGE[row.original.role]}>{ROLE_LABELS[row.original.role]}</Badge>,
    },
    {
      accessorKey: 'createdAt',
      header: 'Added',
      cell: ({ row }) => <span className="tabular-nums text-muted-foreground">{formatDate(row.original.createdAt)}</span>,
    },
    actionsColumn(
      (m) => `Actions for ${m.email}`,
      (m) => [
        { label: 'Change role', icon: ShieldIcon, onSelect: () => onRole(m) },
        { label: 'Remove', icon: Trash2Icon, destructive: true, disabled: m.id === selfId, onSelect: () => onRemove(m) },
      ],
    ),
  ];
}

function ChangeRoleDialog({ member, onClose }: { member: StaffMember | null; onClose(): void }) {
  const queryClient = useQueryClient();
  // Each opening starts from the member's role (state adjusted while rendering, as React advises, not in an effect).
  const [role, setRole] = React.useState<StaffRole>(member?.role ?? 'editor');
  const [shownMember, setShownMember] = React.useState(member);
  if (shownMember !== member) {
    setShownMember(member);
    if (member) setRole(member.role);
  }
  const save = useMutation({
    mutationFn: () => adminFetch<{ staff: StaffMember }>(`/api/admin/staff/${encodeURIComponent(member!.id)}`, { method: 'PATCH', body: { role } }),
    onSuccess: ({ staff }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.staff });
      toast.success(`${staff.name} is now ${ROLE_LABELS[staff.role]}`);
      onClose();
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  return (
    <Dialog open={member !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Change the role of {member?.name}</DialogTitle>
          <DialogDescription>It applies from their next click; no need to sign in again.</DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor="staff-role">Role</Label>
            <RoleSelect id="staff-role" value={role} onChange={setRole} aria-describedby="staff-role-description" />
            <div id="staff-role-description">
              <RoleDescription role={role} />
            </div>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending || role === member?.role}>
              Save role
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function StaffScreen() {
  const { staff: self } = useStaff();
  const queryClient = useQueryClient();
  const { data, isLoading, error } = useQuery({ queryKey: queryKeys.staff, queryFn: () => adminFetch<{ staff: StaffMember[] }>('/api/admin/staff').then((r) => r.staff) });
  const [changing, setChanging] = React.useState<StaffMember | null>(null);
  const [removing, setRemoving] = React.useState<StaffMember | null>(null);
  const [created, setCreated] = React.useState<CreatedStaff | null>(null);

  const remove = useMutation({
    mutationFn: (m: StaffMember) => adminFetch<void>(`/api/admin/staff/${encodeURIComponent(m.id)}`, { method: 'DELETE' }),
    onSuccess: (_, m) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.staff });
      toast.success(`${m.name} was removed and signed out`);
    },
    onError: (err) => toast.error(errorMessage(err)),
  });

  const cols = React.useMemo(() => columns(self.id, setChanging, setRemoving), [self.id]);

  return (
    <>
      <PageHeader
        title="Staff"
        description="Who can sign in to the console, and what their role lets them do."
        breadcrumbs={[{ label: 'Console', href: '/admin' }, { label: 'Settings' }, { label: 'Staff' }]}
        actions={<CreateStaffDialog onCreated={(c) => (c.password ? setCreated(c) : toast.success(`${c.staff.name} can sign in now`))} />}
      />
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the staff: {errorMessage(error)}
        </p>
      ) : (
        <DataTable
          label="Staff"
          columns={cols}
          data={data}
          isLoading={isLoading}
          searchPlaceholder="Search by name or e-mail"
          getRowId={(m) => m.id}
          initialSorting={[{ id: 'member', desc: false }]}
          toolbar={(table) => (
            <FilterSelect
              label="Filter by role"
              className="w-40"
              value={(table.getColumn('role')?.getFilterValue() as string | undefined) ?? 'all'}
              onChange={(v) => table.getColumn('role')?.setFilterValue(v === 'all' ? undefined : v)}
              options={[{ value: 'all', label: 'All roles' }, ...STAFF_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))]}
            />
          )}
          empty={<EmptyState icon={UsersIcon} title="No staff yet" />}
        />
      )}
      <ChangeRoleDialog member={changing} onClose={() => setChanging(null)} />
      <ConfirmDialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={<>Remove {removing?.name}?</>}
        description={<>{removing?.email} can no longer sign in, and their open sessions end at once. Their past changes stay in the audit log.</>}
        confirmLabel="Remove"
        onConfirm={() => removing && remove.mutate(removing)}
      />
      <SecretDialog
        title={`${created?.staff.name ?? ''} can sign in`}
        description={`Give ${created?.staff.email ?? ''} this password over a safe channel; they can change it from their account menu.`}
        secrets={created?.password ? [{ label: 'Password', value: created.password }] : null}
        onClose={() => setCreated(null)}
      />
    </>
  );
}
