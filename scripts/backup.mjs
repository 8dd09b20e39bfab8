// A consistent copy of a running embedded Questline (PGlite in <data dir>/pg):
//   node scripts/backup.mjs [--url http://127.0.0.1:3000] [--out file.tar.gz]
// It asks the running server (GET /api/admin/backup, admin key) for a copy of
// its database taken while no statement runs, and writes it to --out
// (default questline-backup-<time>.tar.gz in the current directory). The admin
// key is ADMIN_API_KEY, else the one the first start generated in the data
// directory (QUESTLINE_DATA_DIR, default ./.data). Restore with
// scripts/restore.mjs. On PostgreSQL use pg_dump instead (docs/operations/backup.md).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { url: { type: 'string', default: `http://127.0.0.1:${process.env.PORT ?? 3000}` }, out: { type: 'string' } },
});

function adminKey() {
  if (process.env.ADMIN_API_KEY?.trim()) return process.env.ADMIN_API_KEY.trim();
  const file = path.join(path.resolve(process.env.QUESTLINE_DATA_DIR?.trim() || '.data'), 'admin-api-key');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    console.error(`backup: no ADMIN_API_KEY and no ${file}: set ADMIN_API_KEY to the server's admin key`);
    process.exit(2);
  }
}

const started = Date.now();
let res;
try {
  res = await fetch(new URL('/api/admin/backup', values.url), { headers: { Authorization: `Bearer ${adminKey()}` } });
} catch (err) {
  console.error(`backup: cannot reach ${values.url}: ${err.cause?.message ?? err.message}`);
  process.exit(1);
}
if (res.status !== 200) {
  const body = await res.text();
  let message = body;
  try {
    message = JSON.parse(body).message ?? body;
  } catch {
    // not JSON: shown as it is
  }
  console.error(`backup: the server answered ${res.status}: ${message}`);
  process.exit(1);
}
const bytes = new Uint8Array(await res.arrayBuffer());
if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
  console.error('backup: the answer is not a gzip file; nothing written');
  process.exit(1);
}
const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'questline-backup.tar.gz';
const out = path.resolve(values.out ?? name);
// Written aside, then renamed: an interrupted backup never leaves a partial file under the name.
writeFileSync(`${out}.partial`, bytes, { mode: 0o600 });
renameSync(`${out}.partial`, out);
console.log(`backup: ${out} (${(bytes.byteLength / 1024 / 1024).toFixed(1)} MiB in ${Date.now() - started} ms)`);
