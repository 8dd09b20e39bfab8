// Backup and restore of the embedded database (docs/operations/backup.md): scripts/backup.mjs copies a RUNNING server's database while
// players keep writing, scripts/restore.mjs puts the copy into a stopped data
// directory, and a server started on it answers the state of the copy. On
// PostgreSQL the backup route says to use pg_dump instead.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVE_ADMIN_KEY, startServeProcess, type ServeProcess } from '@/lib/testing/serve-process';
import { mission } from '@/lib/testing/fixtures';

const root = path.resolve(__dirname, '..');
const embedded = !process.env.DATABASE_URL;
const running: ServeProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((p) => p.stop('SIGKILL')));
});

async function call(p: ServeProcess, method: string, route: string, body?: unknown, token = SERVE_ADMIN_KEY, headers: Record<string, string> = {}) {
  const res = await fetch(p.url + route, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

/** Runs a script of scripts/ as its own process (asynchronously: the test's players keep writing meanwhile). */
function node(script: string, args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; output: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [path.join(root, 'scripts', script), ...args], { cwd: root, env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, output, ms: Date.now() - started })));
}

async function player(p: ServeProcess, appId: string, appSecret: string, userId: string): Promise<string> {
  const res = await fetch(`${p.url}/v1/auth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ appId, appSecret, userId }) });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

describe.skipIf(!embedded)('backup and restore of the embedded database', () => {
  it('a copy taken while the server runs and players write restores to the state of the copy', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'questline-backup-src-'));
    const source = await startServeProcess({ QUESTLINE_DATA_DIR: dataDir });
    running.push(source);
    const appId = 'backup-game';
    const created = await call(source, 'POST', '/api/admin/apps', { id: appId, name: 'Backup game' });
    expect(created.status).toBe(201);
    const appSecret = created.body.appSecret as string;
    const catalog = { missions: [mission('win', { criteria: { eventName: 'win', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 25 } })], campaigns: [] };
    expect((await call(source, 'PUT', `/api/admin/apps/${appId}/catalog`, catalog)).status).toBe(200);
    const alice = await player(source, appId, appSecret, 'alice');
    expect((await call(source, 'POST', '/v1/events', { userId: 'alice', name: 'win', payload: {}, timestamp: Date.now() }, alice)).status).toBe(200);
    expect((await call(source, 'POST', '/v1/missions/win/claim', undefined, alice, { 'Idempotency-Key': 'alice-win' })).status).toBe(200);

    // The copy is taken while another player's events keep arriving.
    const bob = await player(source, appId, appSecret, 'bob');
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const r = await call(source, 'POST', '/v1/events', { userId: 'bob', name: 'play', payload: { n: written }, timestamp: Date.now() }, bob);
        // A player's rate limit may answer 429 to this loop; anything else is a fault.
        expect([200, 429]).toContain(r.status);
        if (r.status === 200) written++;
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'questline-backup-file-')), 'copy.tar.gz');
    const backup = await node('backup.mjs', ['--url', source.url, '--out', out], { ADMIN_API_KEY: SERVE_ADMIN_KEY });
    writing = false;
    await writer;
    expect(backup.status, backup.output).toBe(0);
    expect(backup.output).toMatch(/^backup: .*copy\.tar\.gz \(/m);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    // After the copy: a change that the restored database must not have.
    expect((await call(source, 'POST', `/api/admin/apps/${appId}/users/alice/grants`, { currency: 'gems', amount: 1000, reason: 'after the backup' })).status).toBe(200);
    const audit = await call(source, 'GET', '/api/admin/audit?target=database');
    expect(JSON.stringify(audit.body)).toContain('database.backup');
    await source.stop('SIGTERM');

    // Restore into a new data directory; a second restore over it needs --force and keeps the first aside.
    const target = mkdtempSync(path.join(tmpdir(), 'questline-backup-dst-'));
    const restore = await node('restore.mjs', [out, '--data-dir', target]);
    expect(restore.status, restore.output).toBe(0);
    expect(restore.output).toMatch(/restored from .* \(\d+ apps?\) in \d+ ms/);
    // Owner-only like the service's own files, and the lock it held while it worked given back.
    expect(statSync(path.join(target, 'pg', 'PG_VERSION')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(target, 'pg')).mode & 0o777).toBe(0o700);
    expect(existsSync(path.join(target, 'questline.lock'))).toBe(false);
    const again = await node('restore.mjs', [out, '--data-dir', target]);
    expect(again.status).toBe(1);
    expect(again.output).toMatch(/already holds a database; --force/);
    const forced = await node('restore.mjs', [out, '--data-dir', target, '--force']);
    expect(forced.status, forced.output).toBe(0);
    expect(readdirSync(target).some((f) => f.startsWith('pg.before-restore-'))).toBe(true);
    console.log(`backup+restore round trip: backup ${backup.ms} ms (${written} events written meanwhile), restore ${restore.ms} ms`);

    const restored = await startServeProcess({ QUESTLINE_DATA_DIR: target });
    running.push(restored);
    const aliceAgain = await player(restored, appId, appSecret, 'alice');
    const balance = await call(restored, 'GET', '/v1/balance', undefined, aliceAgain);
    expect(balance.body).toMatchObject({ balances: [expect.objectContaining({ currency: 'gems', amount: 25 })] });
    const missions = await call(restored, 'GET', '/v1/missions', undefined, aliceAgain);
    expect(JSON.stringify(missions.body)).toContain('"status":"claimed"');
    // The claim's key replays from the restored database: exactly once survives the round trip.
    const replay = await call(restored, 'POST', '/v1/missions/win/claim', undefined, aliceAgain, { 'Idempotency-Key': 'alice-win' });
    expect(replay.status).toBe(200);
    expect((await call(restored, 'GET', '/v1/balance', undefined, aliceAgain)).body).toMatchObject({ balances: [expect.objectContaining({ amount: 25 })] });
    // The restore refuses a data directory a running server holds.
    const busy = await node('restore.mjs', [out, '--data-dir', target, '--force']);
    expect(busy.status).toBe(1);
    expect(busy.output).toMatch(/in use by process \d+: stop the service first/);
  }, 300_000);
});

describe.skipIf(embedded)('backup on PostgreSQL', () => {
  it('answers 409 conflict pointing to pg_dump', async () => {
    const p = await startServeProcess();
    running.push(p);
    const res = await call(p, 'GET', '/api/admin/backup');
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/pg_dump/);
  }, 120_000);
});
