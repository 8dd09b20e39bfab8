// Next.js start-up hook under `next start` or a serverless platform: check the
// configuration, migrate, seed the demo. Under `npm start` the custom server
// (scripts/server.ts) has booted the process before Next.js loads, so this
// hook has nothing to do there (it runs in another chunk, with its own copy
// of every module; only the process-wide marker is shared).
import { customServer } from './lib/http/server-mode';

export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs' && !customServer().active) await import('./lib/boot-next');
}
