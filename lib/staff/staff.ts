// Staff accounts: list, create (password chosen or generated, shown once),
// change a role, remove. Each write is one transaction with its audit row. The
// last admin can be neither demoted nor removed, and nobody removes themselves.
import { randomBytes } from 'node:crypto';
import { asc, count, eq } from 'drizzle-orm';
import { hashPassword } from 'better-auth/crypto';
import type { DbOrTx, Tx } from '@/db/client';
import { staff, staffAccount, type StaffRow } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { AppError } from '@/lib/errors';
import { toShownEmail, toStoredEmail } from './email';
import type { CreateStaffInput, CreatedStaff, StaffMember, StaffRole, UpdateStaffInput } from '@/lib/contract/staff';

/** The database, who acts (for the audit log) and when. */
export interface StaffVerbContext {
  db: DbOrTx;
  actor: string;
  /** The acting staff member's id; null for the admin key or the system. */
  actorId: string | null;
  now?: number;
}

function toStaffMember(row: StaffRow): StaffMember {
  return { id: row.id, email: toShownEmail(row.email), name: row.name, role: row.role, createdAt: row.createdAt.getTime() };
}

/** A password people can type: 20 characters of base64url (120 bits). */
export function generateStaffPassword(): string {
  return randomBytes(15).toString('base64url');
}

const newId = () => randomBytes(16).toString('base64url');

export async function listStaff(db: DbOrTx): Promise<StaffMember[]> {
  return (await db.select().from(staff).orderBy(asc(staff.email))).map(toStaffMember);
}

export async function countStaff(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(staff);
  return row.n;
}

export async function createStaff({ ctx, input }: { ctx: StaffVerbContext; input: CreateStaffInput }): Promise<CreatedStaff> {
  const now = ctx.now ?? Date.now();
  const generated = input.password === undefined ? generateStaffPassword() : null;
  // Better Auth's own hasher (scrypt), so its sign-in verifies what we store.
  const hash = await hashPassword(input.password ?? generated!);
  const { db } = ctx;
  const member = await db.transaction(async (tx) => {
    const at = new Date(now);
    const [row] = await tx
      .insert(staff)
      .values({ id: newId(), email: toStoredEmail(input.email), name: input.name, role: input.role, emailVerified: true, createdAt: at, updatedAt: at })
      .onConflictDoNothing({ target: staff.email })
      .returning();
    if (!row) throw new AppError('conflict', `A staff account for ${input.email} already exists`);
    // Better Auth's e-mail and password account: provider "credential", account id = user id.
    await tx.insert(staffAccount).values({ id: newId(), accountId: row.id, providerId: 'credential', userId: row.id, password: hash, createdAt: at, updatedAt: at });
    const created = toStaffMember(row);
    await recordAudit(tx, { actor: ctx.actor, action: 'staff.create', appId: null, target: `staff:${created.email}`, after: created }, now);
    return created;
  });
  return generated === null ? { staff: member } : { staff: member, password: generated };
}

/** Locks every admin row, so two concurrent demotions cannot both see "another admin is left". */
async function lockAdmins(tx: Tx): Promise<string[]> {
  const rows = await tx.select({ id: staff.id }).from(staff).where(eq(staff.role, 'admin')).for('update');
  return rows.map((r) => r.id);
}

async function findStaff(tx: Tx, id: string): Promise<StaffRow> {
  const [row] = await tx.select().from(staff).where(eq(staff.id, id)).for('update');
  if (!row) throw new AppError('not_found', `No staff member "${id}"`);
  return row;
}

function refuseLastAdmin(row: StaffRow, admins: string[], action: string): void {
  if (row.role === 'admin' && admins.length <= 1 && admins.includes(row.id)) {
    throw new AppError('conflict', `${row.email} is the last admin and cannot be ${action}; make another admin first`);
  }
}

export async function setStaffRole({ ctx, input }: { ctx: StaffVerbContext; input: UpdateStaffInput & { id: string } }): Promise<StaffMember> {
  const now = ctx.now ?? Date.now();
  const { db } = ctx;
  return db.transaction(async (tx) => {
    const admins = await lockAdmins(tx);
    const before = await findStaff(tx, input.id);
    if (before.role === input.role) return toStaffMember(before);
    if (input.role !== 'admin') refuseLastAdmin(before, admins, 'demoted');
    const [row] = await tx.update(staff).set({ role: input.role as StaffRole, updatedAt: new Date(now) }).where(eq(staff.id, input.id)).returning();
    const after = toStaffMember(row);
    await recordAudit(tx, { actor: ctx.actor, action: 'staff.set_role', appId: null, target: `staff:${after.email}`, before: { role: before.role }, after: { role: after.role } }, now);
    return after;
  });
}

/** Removes the account; its sessions and password go with it (foreign keys cascade). */
export async function removeStaff({ ctx, input }: { ctx: StaffVerbContext; input: { id: string } }): Promise<StaffMember> {
  if (ctx.actorId === input.id) throw new AppError('conflict', 'You cannot remove your own account');
  const now = ctx.now ?? Date.now();
  const { db } = ctx;
  return db.transaction(async (tx) => {
    const admins = await lockAdmins(tx);
    const row = await findStaff(tx, input.id);
    refuseLastAdmin(row, admins, 'removed');
    await tx.delete(staff).where(eq(staff.id, input.id));
    const removed = toStaffMember(row);
    await recordAudit(tx, { actor: ctx.actor, action: 'staff.remove', appId: null, target: `staff:${removed.email}`, before: removed }, now);
    return removed;
  });
}
