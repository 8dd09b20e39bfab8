// Staff accounts, the pieces their verbs (lib/services/staff/) and the first
// admin (./bootstrap.ts) are made of: a row as the admin API shows it, a
// password, the new account's rows with their audit row, and the guards of
// role changes and removals (the last admin can be neither demoted nor removed).
import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { hashPassword } from 'better-auth/crypto';
import type { DbOrTx, Tx } from '@/db/client';
import { staff, staffAccount, type StaffRow } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { AppError } from '@/lib/errors';
import { toShownEmail, toStoredEmail } from './email';
import type { CreateStaffInput, StaffMember } from '@/lib/contract/staff';

export function toStaffMember(row: StaffRow): StaffMember {
  return { id: row.id, email: toShownEmail(row.email), name: row.name, role: row.role, createdAt: row.createdAt.getTime() };
}

/** A password people can type: 20 characters of base64url (120 bits). */
export function generateStaffPassword(): string {
  return randomBytes(15).toString('base64url');
}

const newId = () => randomBytes(16).toString('base64url');

export async function countStaff(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(staff);
  return row.n;
}

/** The password's hash by Better Auth's own hasher (scrypt), so its sign-in verifies what we store; a generated password when none is given. */
export async function staffPassword(password: string | undefined): Promise<{ hash: string; generated: string | null }> {
  const generated = password === undefined ? generateStaffPassword() : null;
  return { hash: await hashPassword(password ?? generated!), generated };
}

/** A new account (409 conflict when the address has one) with its Better Auth credential and audit row, in `tx`. */
export async function insertStaff(tx: Tx, input: Omit<CreateStaffInput, 'password'> & { hash: string }, actor: string, now: number): Promise<StaffMember> {
  const at = new Date(now);
  const [row] = await tx
    .insert(staff)
    .values({ id: newId(), email: toStoredEmail(input.email), name: input.name, role: input.role, emailVerified: true, createdAt: at, updatedAt: at })
    .onConflictDoNothing({ target: staff.email })
    .returning();
  if (!row) throw new AppError('conflict', `A staff account for ${input.email} already exists`);
  // Better Auth's e-mail and password account: provider "credential", account id = user id.
  await tx.insert(staffAccount).values({ id: newId(), accountId: row.id, providerId: 'credential', userId: row.id, password: input.hash, createdAt: at, updatedAt: at });
  const created = toStaffMember(row);
  await recordAudit(tx, { actor, action: 'staff.create', appId: null, target: `staff:${created.email}`, after: created }, now);
  return created;
}

/** Locks every admin row, so two concurrent demotions cannot both see "another admin is left". */
export async function lockAdmins(tx: Tx): Promise<string[]> {
  const rows = await tx.select({ id: staff.id }).from(staff).where(eq(staff.role, 'admin')).for('update');
  return rows.map((r) => r.id);
}

export async function findStaff(tx: Tx, id: string): Promise<StaffRow> {
  const [row] = await tx.select().from(staff).where(eq(staff.id, id)).for('update');
  if (!row) throw new AppError('not_found', `No staff member "${id}"`);
  return row;
}

export function refuseLastAdmin(row: StaffRow, admins: string[], action: string): void {
  if (row.role === 'admin' && admins.length <= 1 && admins.includes(row.id)) {
    throw new AppError('conflict', `${row.email} is the last admin and cannot be ${action}; make another admin first`);
  }
}
