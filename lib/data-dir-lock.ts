// One process per embedded data directory. PGlite is one connection in one
// process: a second process on the same directory would write a copy the
// first never sees and leave a database that no longer opens. The lock is a
// file holding the holder's pid; a lock whose process is gone is taken over.
import { chmodSync, linkSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureDataDir } from './config';

export const LOCK_FILE = 'questline.lock';

/** Start-up stops with this one line (scripts/server.ts, scripts/serve.ts, the instrumentation hook). */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(`Questline: the data directory ${dataDir} is in use by process ${holderPid}; only one process may use it (stop that one, or set QUESTLINE_DATA_DIR to another directory)`);
    this.name = 'DataDirInUseError';
  }
}

function readPid(file: string): number | null {
  try {
    const text = readFileSync(file, 'utf8').trim();
    return /^\d+$/.test(text) ? Number(text) : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const released = new Set<string>();

/**
 * Takes the lock of `dataDir` for this process (again, if it holds it
 * already) and answers its release. Throws DataDirInUseError while another
 * living process holds it.
 */
export function lockDataDir(dataDir: string): () => void {
  ensureDataDir(dataDir);
  const lock = path.join(dataDir, LOCK_FILE);
  // Written aside, then linked into place: the lock appears with its pid in
  // it, and only one of several processes can create it.
  const aside = `${lock}.${process.pid}`;
  writeFileSync(aside, `${process.pid}\n`, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        linkSync(aside, lock);
        return releaser(lock);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = readPid(lock);
      // A lock left with this pid is ours: taken earlier by this process, or
      // left by an earlier run that had the same pid (a container's pid 1).
      if (holder === process.pid) return releaser(lock);
      if (holder !== null && isAlive(holder)) throw new DataDirInUseError(dataDir, holder);
      takeOverStale(dataDir, lock, holder);
    }
    throw new Error(`could not take the lock ${lock}`);
  } finally {
    rmSync(aside, { force: true });
  }
}

/**
 * Moves a dead holder's lock out of the way. The move is atomic; should
 * another process have replaced the stale lock in the meantime (two starts
 * after a crash), the lock we moved is a live one: it is put back and this
 * process gives way.
 */
function takeOverStale(dataDir: string, lock: string, stalePid: number | null): void {
  const moved = `${lock}.stale.${process.pid}`;
  try {
    renameSync(lock, moved);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const movedPid = readPid(moved);
  if (movedPid !== null && movedPid !== stalePid && movedPid !== process.pid && isAlive(movedPid)) {
    try {
      linkSync(moved, lock);
    } catch {
      // Someone else holds it by now; either way this process gives way.
    }
    rmSync(moved, { force: true });
    throw new DataDirInUseError(dataDir, movedPid);
  }
  rmSync(moved, { force: true });
}

function releaser(lock: string): () => void {
  released.delete(lock);
  const release = () => {
    if (released.has(lock)) return;
    released.add(lock);
    if (readPid(lock) === process.pid) rmSync(lock, { force: true });
  };
  // A process that exits without closing the database (crash, process.exit) still frees it.
  process.once('exit', release);
  return () => {
    process.off('exit', release);
    release();
  };
}

/** Makes every file owner-only (0600) and every directory 0700 (PGlite unpacks its files 0666). */
export function makeOwnerOnly(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) makeOwnerOnly(full);
    else if (entry.isFile()) chmodSync(full, 0o600);
  }
}
