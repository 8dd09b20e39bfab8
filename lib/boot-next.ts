// Boot under `next start` or a serverless platform (imported by
// instrumentation.ts on the Node runtime only): a start-up problem prints one
// clear line and stops the server. Under `npm start` the custom server has
// booted already (scripts/server.ts): boot() answers that same run.
import { boot } from './boot';
import { getConfig, startupErrorLine } from './config';

try {
  await boot();
  if (getConfig().trustProxy === 0 && process.env.QUESTLINE_QUIET !== '1') {
    console.log(
      'Questline: TRUST_PROXY is not set, and Next.js route handlers cannot see the client address: the token ' +
        "endpoint's failure guard counts per app and staff sign-in counts everyone as one client. Set TRUST_PROXY to the number of proxies that append to X-Forwarded-For.",
    );
  }
} catch (err) {
  console.error(startupErrorLine(err) ?? err);
  process.exit(1);
}
