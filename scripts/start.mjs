// `npm start`: builds when there is no build yet or the sources changed since
// (`next build`, then the server bundle of scripts/build-server.mjs), then
// runs Questline's own server (.next/questline-server.mjs) in this process:
// it checks the configuration, migrates, seeds the demo, prints the start-up
// lines once and serves on PORT (3000).
//   node scripts/start.mjs --build-only   build when stale, then exit (npm test)
//   node scripts/start.mjs --next-start   serve with `next start` instead: the
//     Next.js route files, as a serverless platform runs them (browser tests)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildServer, isBuildStale, SERVER_BUNDLE } from './build-server.mjs';
import { fetchScalar } from './fetch-scalar.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const next = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const buildLock = path.join(root, '.build.lock');
const mode = process.argv[2] ?? '';
if (!['', '--build-only', '--next-start'].includes(mode)) {
  console.error(`Usage: node scripts/start.mjs [--build-only | --next-start] (got ${mode})`);
  process.exit(2);
}
process.env.NEXT_TELEMETRY_DISABLED ??= '1';

const stale = isBuildStale;

/** The parent pid of a process, from /proc (Linux); null without /proc or once it is gone. */
function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

function commandOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * Under `npm start`, ends this server when npm ends: npm runs it through
 * `sh -c`, and a SIGTERM to npm's pid ends npm and that shell but not this
 * process; a SIGKILL to npm leaves the shell waiting on it. Either way the
 * server used to keep serving, orphaned. Checked each second: the parent
 * (npm, or the shell) gone, or the shell's parent (npm) gone, is a SIGTERM
 * to this process (drained as usual). Run directly (`node scripts/start.mjs`,
 * e.g. under systemd or in a container) nothing is watched: signals reach
 * the server itself.
 */
function stopWithNpm() {
  const parent = process.ppid;
  if (!process.env.npm_lifecycle_event || parent <= 1) return;
  const launcher = ['sh', 'dash', 'bash'].includes(commandOf(parent)) ? parentOf(parent) : null;
  const timer = setInterval(() => {
    if (process.ppid === parent && (launcher === null || parentOf(parent) === launcher)) return;
    clearInterval(timer);
    console.log('Questline: npm, which started this server, is gone; stopping');
    process.kill(process.pid, 'SIGTERM');
  }, 1000);
  timer.unref();
}
stopWithNpm();

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** One build at a time: two starts on a stale build (two instances, two browser-test servers) would corrupt .next. */
async function withBuildLock(fn) {
  for (;;) {
    try {
      mkdirSync(buildLock);
      writeFileSync(path.join(buildLock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let holder = 0;
      let since = Date.now();
      try {
        since = statSync(buildLock).mtimeMs;
        holder = Number(readFileSync(path.join(buildLock, 'pid'), 'utf8')) || 0;
      } catch {
        // Being created or removed right now.
      }
      // A dead holder's lock, or one left without a pid for long, is taken over.
      if ((holder && !alive(holder)) || (!holder && Date.now() - since > 10_000)) rmSync(buildLock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(buildLock, { recursive: true, force: true });
  }
}

/**
 * PORT in use: one line and exit 1 before anything else (a build of several
 * minutes, a data directory, secrets, migrations). The server checks again
 * itself (lib/startup-errors.ts); a bad PORT value is left to its configuration check.
 */
async function checkPort() {
  const port = Number(process.env.PORT?.trim() || '3000');
  if (!Number.isInteger(port) || port < 1 || port > 65535) return;
  const { createServer } = await import('node:net');
  const inUse = await new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (err) => resolve(err.code === 'EADDRINUSE'));
    probe.listen(port, () => probe.close(() => resolve(false)));
  });
  if (inUse) {
    console.error(`Questline: PORT ${port} is already in use (another Questline or another server?); stop it or set PORT to a free port`);
    process.exit(1);
  }
}
if (mode !== '--build-only') await checkPort();

if (stale()) {
  await withBuildLock(async () => {
    // Another start may have built while this one waited.
    if (!stale()) return;
    console.log('Questline: building (first start or sources changed)…');
    const build = spawnSync(process.execPath, [next, 'build'], { cwd: root, stdio: 'inherit', env: process.env });
    if (build.status !== 0) process.exit(build.status ?? 1);
    await buildServer();
  });
}

// The API reference's renderer (public/, read at run time): fetched once, kept.
fetchScalar();

if (mode === '--build-only') process.exit(0);
if (mode === '--next-start') {
  const child = spawn(process.execPath, [next, 'start', '-p', process.env.PORT || '3000'], { cwd: root, stdio: 'inherit', env: process.env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  process.env.NODE_ENV ??= 'production';
  await import(pathToFileURL(SERVER_BUNDLE).href);
}
