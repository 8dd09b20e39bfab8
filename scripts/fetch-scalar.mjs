// Puts Scalar's browser bundle (the renderer of /docs) in public/vendor/scalar
// at build time, so the API reference needs no CDN at run time. Only the one
// file is taken from the npm package @scalar/api-reference (its ~290 MB of
// dependencies are not installed): `npm pack` fetches the tarball through npm's
// cache, its integrity is checked against the pinned hash, and
// dist/browser/standalone.js is extracted. The file is not committed.
// A failure (no registry) is a warning, not a failed build: /docs then says
// where the OpenAPI documents are.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const SCALAR_VERSION = '1.72.1';
const INTEGRITY = 'sha512-XpEJ0rfc/cXbCrR+iC4kK0o/WwX2dTtGQbT049OlPKAHD6IMIFdTeGz2r+M27P2EDWKyUITRm/NzlP8z2pw/Ow==';
const ENTRY = 'package/dist/browser/standalone.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCALAR_BUNDLE = path.join(root, 'public', 'vendor', 'scalar', `api-reference-${SCALAR_VERSION}.js`);

/** The bytes of one regular file in a (ustar) tar archive, or null. */
function extractFromTar(tar, wanted) {
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) return null;
    const field = (start, length) => header.subarray(start, start + length).toString('utf8').replace(/\0.*$/s, '');
    const prefix = field(345, 155);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const body = offset + 512;
    if (name === wanted && (field(156, 1) === '0' || field(156, 1) === '')) return tar.subarray(body, body + size);
    offset = body + Math.ceil(size / 512) * 512;
  }
  return null;
}

export function fetchScalar() {
  if (existsSync(SCALAR_BUNDLE)) return true;
  const work = mkdtempSync(path.join(tmpdir(), 'questline-scalar-'));
  try {
    execFileSync('npm', ['pack', `@scalar/api-reference@${SCALAR_VERSION}`, '--pack-destination', work, '--silent'], {
      cwd: work,
      stdio: ['ignore', 'ignore', 'pipe'],
      shell: process.platform === 'win32',
    });
    const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error('npm pack produced no tarball');
    const packed = readFileSync(path.join(work, tgz));
    const integrity = `sha512-${createHash('sha512').update(packed).digest('base64')}`;
    if (integrity !== INTEGRITY) throw new Error(`integrity mismatch (${integrity})`);
    const bundle = extractFromTar(gunzipSync(packed), ENTRY);
    if (!bundle) throw new Error(`${ENTRY} not found in the tarball`);
    mkdirSync(path.dirname(SCALAR_BUNDLE), { recursive: true });
    writeFileSync(`${SCALAR_BUNDLE}.tmp`, bundle);
    renameSync(`${SCALAR_BUNDLE}.tmp`, SCALAR_BUNDLE);
    return true;
  } catch (err) {
    console.warn(`Questline: could not fetch Scalar ${SCALAR_VERSION} for /docs (${err.message.split('\n')[0]}); /docs will not render, the OpenAPI documents stay at /v1/openapi.json and /api/admin/openapi.json`);
    return false;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) fetchScalar();
