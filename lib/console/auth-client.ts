// Better Auth's browser client for the console: sign in, sign out, change
// password, all against this origin's /api/auth.
import { createAuthClient } from 'better-auth/react';

export const authClient = createAuthClient({ basePath: '/api/auth' });
