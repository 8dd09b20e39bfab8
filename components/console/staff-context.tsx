'use client';

// The signed-in staff member, handed down from the console's server layout,
// and can(capability) from the one role map: the UI hides what the role cannot
// do (the server refuses it anyway).
import * as React from 'react';
import { can as roleCan, type Capability } from '@/lib/auth/roles';
import type { SignedInStaff } from '@/lib/auth/staff-session';

const StaffContext = React.createContext<SignedInStaff | null>(null);

export function StaffProvider({ staff, children }: { staff: SignedInStaff; children: React.ReactNode }) {
  return <StaffContext.Provider value={staff}>{children}</StaffContext.Provider>;
}

export function useStaff(): { staff: SignedInStaff; can(capability: Capability): boolean } {
  const staff = React.useContext(StaffContext);
  if (!staff) throw new Error('useStaff belongs inside the console layout');
  return { staff, can: (capability) => roleCan(staff.role, capability) };
}

/** Renders children only when the signed-in role has the capability. */
export function IfCan({ capability, children }: { capability: Capability; children: React.ReactNode }) {
  const { can } = useStaff();
  return can(capability) ? <>{children}</> : null;
}
