// GET /api/admin/me – who is calling: the staff member (or the admin key), role and capabilities
// GET|POST /api/admin/staff – list staff; create a staff account (a generated password is shown once)
// PATCH|DELETE /api/admin/staff/:staffId – change a role; remove an account
import { z } from 'zod';
import { capabilitiesOf, STAFF_ROLES } from '@/lib/auth/roles';
import { createStaffSchema, updateStaffSchema } from '@/lib/contract/staff';
import { createStaff } from '@/lib/services/staff/create-staff';
import { listStaff } from '@/lib/services/staff/list-staff';
import { removeStaff } from '@/lib/services/staff/remove-staff';
import { setStaffRole } from '@/lib/services/staff/set-staff-role';
import { readJsonBody } from '../body';
import { adminRoute } from '../handler';
import { json } from '../respond';
import { parseWith } from '../validate';
import { staffServiceContext } from '../service-context';

export const meSchema = z
  .object({
    kind: z.enum(['staff', 'admin-api-key']),
    staff: z.object({ id: z.string(), email: z.string(), name: z.string() }).nullable(),
    role: z.enum(STAFF_ROLES),
    capabilities: z.array(z.string()),
  })
  .meta({ id: 'Me' });

export const getMe = adminRoute('authenticated', async ({ admin: identity }) => {
  const { staff } = identity;
  return json({
    kind: staff ? 'staff' : 'admin-api-key',
    staff: staff ? { id: staff.id, email: staff.email, name: staff.name } : null,
    role: identity.role,
    capabilities: capabilitiesOf(identity.role),
  } satisfies z.infer<typeof meSchema>);
});

export const getStaff = adminRoute('staff.manage', async (request) => json({ staff: await listStaff({ ctx: await staffServiceContext(request) }) }));

export const postStaff = adminRoute('staff.manage', async (ctx) => {
  const { value } = await readJsonBody(ctx.req);
  const input = parseWith(createStaffSchema, value);
  return json(await createStaff({ ctx: await staffServiceContext(ctx), input }), { status: 201 });
});

export const patchStaff = adminRoute('staff.manage', async (ctx) => {
  const { value } = await readJsonBody(ctx.req);
  const input = parseWith(updateStaffSchema, value);
  return json({ staff: await setStaffRole({ ctx: await staffServiceContext(ctx), input: { ...input, id: ctx.params.staffId } }) });
});

export const deleteStaff = adminRoute('staff.manage', async (ctx) => {
  await removeStaff({ ctx: await staffServiceContext(ctx), input: { id: ctx.params.staffId } });
  return new Response(null, { status: 204 });
});
