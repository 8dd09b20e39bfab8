// `npm start`: builds the Next.js app when there is no build yet (or the
// sources changed since), then serves it with `next start` on PORT (3000).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const buildId = path.join(root, '.next', 'BUILD_ID');
const next = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', '.next', '.data', '.git', 'e2e', 'test-results'].includes(entry.name) || entry.name.startsWith('.data')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (/\.(tsx?|mjs|json|css|sql)$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

const stale = !existsSync(buildId) || newestSource(root) > statSync(buildId).mtimeMs;
if (stale) {
  console.log('Questline: building (first start or sources changed)…');
  const build = spawnSync(process.execPath, [next, 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const port = process.env.PORT || '3000';
const child = spawn(process.execPath, [next, 'start', '-p', port], { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
