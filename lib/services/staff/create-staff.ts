// A staff account (POST /api/admin/staff): the password chosen, or generated
// and answered this once; the account, its sign-in credential and its audit
// row in one transaction (409 conflict when the address has an account).
import type { CreateStaffInput, CreatedStaff } from '@/lib/contract/staff';
import { insertStaff, staffPassword } from '@/lib/staff/staff';
import { actorLabel, withTransaction, type ServiceContext } from '../context';

export async function createStaff({ ctx, input }: { ctx: ServiceContext; input: CreateStaffInput }): Promise<CreatedStaff> {
  const now = ctx.now();
  const { hash, generated } = await staffPassword(input.password);
  const { password: _password, ...fields } = input;
  const member = await withTransaction(ctx, (tx) => insertStaff(tx.uow.tx, { ...fields, hash }, actorLabel(ctx.actor), now));
  return generated === null ? { staff: member } : { staff: member, password: generated };
}
