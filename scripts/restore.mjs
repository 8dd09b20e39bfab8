// Restores a copy made by scripts/backup.mjs into an embedded data directory:
//   node scripts/restore.mjs <backup.tar.gz> [--data-dir .data] [--force]
// The service must be stopped (the data directory's lock says whether a
// process holds it). A data directory that already holds a database is left
// alone unless --force, which moves it aside to pg.before-restore-<time>
// (nothing is deleted). The secrets files of the data directory (admin key,
// demo app secret, first admin's password) are not in the copy and are kept.
// The copy is opened once after it is written, to check that it is a database.
// The restore holds the data directory's lock while it works (a service
// started meanwhile stops with "in use"), and leaves the files owner-only
// (0700 directories, 0600 files) as the service keeps them.
import { chmodSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'data-dir': { type: 'string' }, force: { type: 'boolean', default: false } },
});
if (positionals.length !== 1) {
  console.error('Usage: node scripts/restore.mjs <backup.tar.gz> [--data-dir .data] [--force]');
  process.exit(2);
}
const file = path.resolve(positionals[0]);
const dataDir = path.resolve(values['data-dir'] ?? (process.env.QUESTLINE_DATA_DIR?.trim() || '.data'));
const pgDir = path.join(dataDir, 'pg');

const lockFile = path.join(dataDir, 'questline.lock');

/** The living process holding the data directory's lock (-1: someone else's), or null. */
function holder() {
  try {
    const pid = Number(readFileSync(lockFile, 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return null;
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return err?.code === 'EPERM' ? -1 : null;
  }
}

/** Takes the lock as the service does (written aside, linked into place); null when a living process holds it. */
function takeLock() {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const aside = `${lockFile}.${process.pid}`;
  writeFileSync(aside, `${process.pid}\n`, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(aside, lockFile);
        return () => {
          if (readFileSync(lockFile, 'utf8').trim() === String(process.pid)) rmSync(lockFile, { force: true });
        };
      } catch (err) {
        if (err.code !== 'EEXIST') throw err;
      }
      const pid = holder();
      if (pid !== null) return null;
      rmSync(lockFile, { force: true }); // a lock whose process is gone
    }
    return null;
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Owner-only, as the service keeps its data directory. */
function ownerOnly(dir) {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) ownerOnly(full);
    else chmodSync(full, 0o600);
  }
}

const started = Date.now();
const bytes = (() => {
  try {
    return readFileSync(file);
  } catch (err) {
    console.error(`restore: cannot read ${file}: ${err.message}`);
    process.exit(1);
  }
})();
if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
  console.error(`restore: ${file} is not a gzip file made by scripts/backup.mjs`);
  process.exit(1);
}
const release = takeLock();
if (release === null) {
  const pid = holder();
  console.error(`restore: the data directory ${dataDir} is in use by process ${pid === -1 ? '(another user’s)' : pid}: stop the service first`);
  process.exit(1);
}
try {
  if (existsSync(pgDir) && readdirSync(pgDir).length > 0) {
    if (!values.force) {
      console.error(`restore: ${pgDir} already holds a database; --force moves it aside (to pg.before-restore-<time>) and restores`);
      process.exitCode = 1;
    } else {
      const aside = path.join(dataDir, `pg.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`);
      renameSync(pgDir, aside);
      console.log(`restore: the database that was there is now ${aside}`);
    }
  }
  if (process.exitCode !== 1) {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(pgDir, { loadDataDir: new Blob([bytes]) });
    try {
      const { rows } = await db.query('select count(*)::int as apps from apps');
      const apps = rows[0].apps;
      console.log(`restore: ${pgDir} restored from ${file} (${apps} app${apps === 1 ? '' : 's'}) in ${Date.now() - started} ms; start the service with npm start`);
    } finally {
      await db.close();
    }
    ownerOnly(pgDir);
  }
} finally {
  release();
}
