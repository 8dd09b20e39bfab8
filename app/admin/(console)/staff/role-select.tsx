'use client';

import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { ROLE_DESCRIPTIONS, ROLE_LABELS, STAFF_ROLES, type StaffRole } from '@/lib/auth/roles';

/** A role picker that says what each role may do. */
export function RoleSelect({ value, onChange, id, ...aria }: { value: StaffRole; onChange(role: StaffRole): void; id?: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) {
  return (
    <Select value={value} onValueChange={(v) => onChange(v as StaffRole)}>
      <SelectTrigger id={id} {...aria}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {STAFF_ROLES.map((role) => (
          <SelectItem key={role} value={role}>
            {ROLE_LABELS[role]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

export function RoleDescription({ role }: { role: StaffRole }) {
  return <p className="text-[13px] text-muted-foreground">{ROLE_DESCRIPTIONS[role]}</p>;
}
