// The process's database, for the code that makes the process's objects: the
// composition root (lib/service-deps.ts), start-up (lib/boot.ts) and staff
// sign-in's Better Auth instance (lib/auth/staff-auth.ts). The one file
// outside db/, services, tests and infrastructure that reaches the global
// getter (the linter holds it here); it imports nothing of the domain, so
// anything may import it without a circle.
import { getDb, type Db } from '@/db/client';

/** The process's database (opened, and on the embedded default migrated, on first use). */
export function processDb(): Promise<Db> {
  return getDb();
}
