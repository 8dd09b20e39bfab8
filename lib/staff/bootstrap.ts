// The first admin, made at start-up while no staff account exists: from
// ADMIN_EMAIL + ADMIN_PASSWORD, or on the embedded default `admin@localhost`
// with a generated password kept in the data directory (like the admin key).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DbOrTx } from '@/db/client';
import type { Config } from '@/lib/config';
import { readOrCreateSecret } from '@/lib/config';
import { AppError } from '@/lib/errors';
import { countStaff, generateStaffPassword, insertStaff, staffPassword } from './staff';

export const EMBEDDED_ADMIN_EMAIL = 'admin@localhost';
export const ADMIN_PASSWORD_FILE = 'admin-password';

/** One line for the start-up banner, or null when there is nothing to say. */
export async function ensureFirstAdmin(config: Config, db: DbOrTx): Promise<string | null> {
  const passwordFile = path.join(config.dataDir, ADMIN_PASSWORD_FILE);
  if ((await countStaff(db)) > 0) {
    return config.embedded && !config.firstAdmin && existsSync(passwordFile)
      ? `Console: sign in at /admin (first admin ${EMBEDDED_ADMIN_EMAIL}, password in ${passwordFile})`
      : null;
  }
  let email: string;
  let password: string;
  let line: string;
  if (config.firstAdmin) {
    ({ email, password } = config.firstAdmin);
    line = `Console: created admin ${email} (ADMIN_EMAIL); sign in at /admin`;
  } else if (config.embedded) {
    email = EMBEDDED_ADMIN_EMAIL;
    password = readOrCreateSecret(config.dataDir, ADMIN_PASSWORD_FILE, generateStaffPassword);
    line = `Console: sign in at /admin as ${email} with password ${password} (generated, shown once, kept in ${passwordFile})`;
  } else {
    return 'Console: no staff account yet; set ADMIN_EMAIL and ADMIN_PASSWORD, or create one with the admin key (POST /api/admin/staff)';
  }
  try {
    const { hash } = await staffPassword(password);
    const now = Date.now();
    await db.transaction((tx) => insertStaff(tx, { email, name: 'Admin', role: 'admin', hash }, 'system:bootstrap', now));
  } catch (err) {
    // Another instance starting at the same time made it first.
    if (err instanceof AppError && err.code === 'conflict') return null;
    throw err;
  }
  return line;
}
