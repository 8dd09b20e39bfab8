// Boot under `next start` (imported by instrumentation.ts on the Node runtime
// only): a configuration problem prints one clear line and stops the server.
import { boot } from './boot';
import { ConfigError } from './config';

try {
  await boot();
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
