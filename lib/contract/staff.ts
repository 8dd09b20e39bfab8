// Staff accounts: one zod schema per shape, shared by the admin API, its
// OpenAPI document and the console's forms. Imports nothing server-side.
import { z } from 'zod';

/** The console's roles; what each may do is lib/auth/roles.ts. */
export const STAFF_ROLES = ['admin', 'editor', 'support'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Staff passwords: at least 12 characters (Better Auth's own minimum is 8). */
export const STAFF_PASSWORD_MIN = 12;
export const STAFF_PASSWORD_MAX = 128;

const staffRoleSchema = z.enum(STAFF_ROLES).meta({ id: 'StaffRole', description: 'admin, editor or support' });

/** Lower-cased; `name@localhost` is accepted too (lib/staff/email.ts). */
const staffEmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .refine((v) => /^[^\s@]+@localhost$/.test(v) || z.email().safeParse(v).success, { error: 'Enter an e-mail address' });

export const staffPasswordSchema = z
  .string()
  .min(STAFF_PASSWORD_MIN, { error: `At least ${STAFF_PASSWORD_MIN} characters` })
  .max(STAFF_PASSWORD_MAX, { error: `At most ${STAFF_PASSWORD_MAX} characters` });

export const createStaffSchema = z
  .object({
    email: staffEmailSchema,
    name: z.string().trim().min(1, { error: 'Enter a name' }).max(100),
    role: staffRoleSchema,
    /** Omitted: a password is generated and answered this once. */
    password: staffPasswordSchema.optional(),
  })
  .strict()
  .meta({ id: 'CreateStaff' });
export type CreateStaffInput = z.infer<typeof createStaffSchema>;

export const updateStaffSchema = z.object({ role: staffRoleSchema }).strict().meta({ id: 'UpdateStaff' });
export type UpdateStaffInput = z.infer<typeof updateStaffSchema>;

export const staffMemberSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: staffRoleSchema,
    createdAt: z.number().describe('Unix ms'),
  })
  .meta({ id: 'StaffMember' });
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const staffListSchema = z.object({ staff: z.array(staffMemberSchema) }).meta({ id: 'StaffList' });

export const createdStaffSchema = z
  .object({
    staff: staffMemberSchema,
    /** Present when the password was generated: shown this once. */
    password: z.string().optional(),
  })
  .meta({ id: 'CreatedStaff' });
export type CreatedStaff = z.infer<typeof createdStaffSchema>;
