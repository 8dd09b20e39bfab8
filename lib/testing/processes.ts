// Test support for suites that start server processes: the ports they listen on.
import { closeSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';

/** True when nothing listens on `port` (any address: a server may bind 0.0.0.0). */
export async function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '0.0.0.0', () => probe.close(() => resolve(true)));
  });
}

/**
 * Ports handed out from a range (reservePort) are reserved with a lock file
 * holding the owner's pid (in /tmp itself, not the run's TMPDIR: test files of
 * one run run in parallel workers, and a targeted run may run beside a whole
 * suite). A reservation lasts until releasePort() or the process's exit, so a
 * server keeps its port while it is stopped and started again: another file
 * cannot take it in between. A lock whose owner is gone is taken over.
 */
const lockPath = (port: number) => `/tmp/questline-test-port-${port}.lock`;
const reserved = new Set<number>();
process.once('exit', () => {
  for (const port of reserved) releasePort(port);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryReserve(port: number): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath(port), 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      reserved.add(port);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let owner = NaN;
      try {
        owner = Number(readFileSync(lockPath(port), 'utf8'));
      } catch {
        continue; // released meanwhile: try again
      }
      // An empty file is a reservation being written right now; a live owner keeps it.
      if (!Number.isInteger(owner) || owner <= 0 || alive(owner)) return false;
      try {
        unlinkSync(lockPath(port));
      } catch {
        // someone else took it over first
      }
    }
  }
  return false;
}

/**
 * Removes the reservations whose owner is gone: a worker Vitest ends without
 * its exit handlers leaves its lock files (they would be taken over anyway;
 * the run's teardown removes them so a run leaves none in /tmp).
 */
export function removeStalePortLocks(): void {
  for (const name of readdirSync('/tmp')) {
    const match = /^questline-test-port-(\d+)\.lock$/.exec(name);
    if (!match) continue;
    try {
      const owner = Number(readFileSync(lockPath(Number(match[1])), 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && !alive(owner)) unlinkSync(lockPath(Number(match[1])));
    } catch {
      // released or taken over meanwhile
    }
  }
}

/** Gives a port of reservePort() back. */
export function releasePort(port: number): void {
  if (!reserved.delete(port)) return;
  try {
    if (Number(readFileSync(lockPath(port), 'utf8')) === process.pid) unlinkSync(lockPath(port));
  } catch {
    // already gone
  }
}

/**
 * The first port of `range` (`first-last`, from the variable `name`) that
 * nobody has reserved and nothing listens on, reserved for this process.
 */
export async function reservePort(name: string, range: string): Promise<number> {
  const [first, last] = range.split('-').map(Number);
  if (!Number.isInteger(first) || !Number.isInteger(last) || first > last) throw new Error(`${name} must be first-last, got "${range}"`);
  for (let port = first; port <= last; port++) {
    if (!tryReserve(port)) continue;
    if (await portFree(port)) return port;
    releasePort(port);
  }
  throw new Error(`no free port in ${name} ${first}-${last}`);
}

/** A port the OS hands out for 127.0.0.1, closed again at once. */
function osPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A port for a server process a test starts. With QUESTLINE_TEST_PORTS
 * (`first-last`) one of those, reserved until this test process exits (a
 * machine shared with other runs gives each its own range, and no other
 * program can take the port between this probe and the server's bind);
 * without it, one the OS just handed out (closed again at once; the test then
 * binds it), reserved the same way: the OS can hand the same port to two
 * workers probing at the same moment, and then one worker's health check
 * was answered by the other's server (a start whose output was still empty
 * passed for started, seen in CI with three workers).
 */
export async function freePort(): Promise<number> {
  const range = process.env.QUESTLINE_TEST_PORTS?.trim();
  if (range) return reservePort('QUESTLINE_TEST_PORTS', range);
  for (let attempt = 0; ; attempt++) {
    const port = await osPort();
    if (tryReserve(port)) return port;
    if (attempt >= 50) throw new Error('no free port: every port the OS handed out was reserved by another test process');
  }
}
