// Staff roles and what each may do: the one map the admin API (server-side
// checks) and the console (what it shows) both read. Imports only the
// contract, so the browser bundle can use it too.
import { STAFF_ROLES, type StaffRole } from '@/lib/contract/staff';

export { STAFF_ROLES, type StaffRole };

/**
 * One capability per kind of request. A new admin route names the capability
 * it needs (adminRoute('catalog.write', …)); a new console page or button asks
 * can(role, capability). Add capabilities here, never role checks elsewhere.
 */
export const CAPABILITIES = {
  /** List apps (ids and names): every screen is per app, so every role reads them. */
  'apps.read': ['admin', 'editor', 'support'],
  /** Create apps and rotate their secrets (app secret, webhook secret). */
  'apps.manage': ['admin'],
  /** List, create, re-role and remove staff accounts. */
  'staff.manage': ['admin'],
  /** Read missions, campaigns and themes. */
  'catalog.read': ['admin', 'editor', 'support'],
  /** Create, edit, duplicate and archive missions, campaigns and themes. */
  'catalog.write': ['admin', 'editor'],
  /** Charts of events, completions, claims and currency. */
  'analytics.read': ['admin', 'editor', 'support'],
  /** A player's progress, balances, ledger, events and live updates. */
  'players.read': ['admin', 'support'],
  /** Revoke a player's tokens. */
  'players.revoke': ['admin', 'support'],
  /** Make it right for a player (the support desk): grant or correct currency, reset or complete a mission, write notes. */
  'players.adjust': ['admin', 'support'],
  /** A player's data requests: export everything stored about them, or erase it. */
  'players.data': ['admin'],
  /** Send a test event as a player. */
  'players.test_event': ['admin', 'support'],
  /** Who changed what, with before and after. */
  'audit.read': ['admin', 'support'],
} as const satisfies Record<string, readonly StaffRole[]>;

export type Capability = keyof typeof CAPABILITIES;

export const ROLE_LABELS: Record<StaffRole, string> = { admin: 'Admin', editor: 'Editor', support: 'Support' };

export const ROLE_DESCRIPTIONS: Record<StaffRole, string> = {
  admin: 'Everything: apps and their secrets, staff accounts, and all an editor or support can do.',
  editor: 'Authors missions, campaigns and themes; sees the dashboard.',
  support: 'Reads everything, finds and inspects players, revokes their tokens, sends test events, grants or corrects currency, resets or completes missions and writes notes.',
};

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);
}

export function can(role: StaffRole | null | undefined, capability: Capability): boolean {
  return role != null && (CAPABILITIES[capability] as readonly StaffRole[]).includes(role);
}

/** Every capability of a role, for the console (GET /api/admin/me). */
export function capabilitiesOf(role: StaffRole): Capability[] {
  return (Object.keys(CAPABILITIES) as Capability[]).filter((c) => can(role, c));
}
