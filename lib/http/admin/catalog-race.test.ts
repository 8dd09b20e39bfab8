// A theme preset deleted while a campaign save that names it is under way,
// over real HTTP on the real database: whichever commits first, the other
// answers a clear error in the spec's shape (never 500) and writes nothing.
//
// On PostgreSQL the two are interleaved for real: a third connection holds a
// lock on the audit log, so the first request stops at its audit row (after
// its other writes, inside its transaction) while the second one starts and
// waits on the first's row locks; then the lock is released. On the embedded
// PGlite transactions run one at a time, so only the two orders can happen:
// each is tested in sequence, and both fired together.
import { and, asc, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { auditLog, campaigns as campaignsTable, themes as themesTable } from '@/db/schema';
import type { CampaignRecord } from '@/lib/contract/catalog-admin';
import { campaign, mission, themePreset } from '@/lib/testing/fixtures';
import { createTestApp, startTestServer, type TestServer } from '@/lib/testing/test-server';

const postgres = Boolean(process.env.DATABASE_URL?.startsWith('postgres'));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

interface Answer {
  status: number;
  body: { error?: string; message?: string; campaign?: CampaignRecord } | null;
}

async function call(method: string, route: string, body?: unknown): Promise<Answer> {
  const res = await fetch(server.url + route, {
    method,
    headers: { Authorization: `Bearer ${server.adminKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Answer['body']) : null };
}

const themesOf = (appId: string) => `/api/admin/apps/${appId}/themes`;
const campaignsOf = (appId: string) => `/api/admin/apps/${appId}/campaigns`;

/** The three ways a campaign comes to name a preset: create, update, and the catalog import. */
type SaveKind = 'create' | 'update' | 'import';
const SAVES: SaveKind[] = ['create', 'update', 'import'];

/** An app with preset "doomed" and, for an update, campaign "c" without a theme (with mission m1). */
async function setUp(kind: SaveKind): Promise<{ appId: string; save: () => Promise<Answer>; remove: () => Promise<Answer> }> {
  const app = await createTestApp(server, { missions: [mission('m1')], campaigns: kind === 'update' ? [campaign('c')] : [] });
  expect((await call('POST', themesOf(app.appId), themePreset('doomed'))).status).toBe(201);
  const body = campaign('c', { themeId: 'doomed', title: 'Themed' });
  const save = (): Promise<Answer> => {
    switch (kind) {
      case 'create':
        return call('POST', campaignsOf(app.appId), body);
      case 'update':
        return call('PUT', `${campaignsOf(app.appId)}/c`, { ...body, version: 1 });
      case 'import':
        return call('PUT', `/api/admin/apps/${app.appId}/catalog`, { campaigns: [body] });
    }
  };
  return { appId: app.appId, save, remove: () => call('DELETE', `${themesOf(app.appId)}/doomed`) };
}

/** What the database holds: the preset (if any), campaign c (if any), and the audit actions, oldest first. */
async function stateOf(appId: string) {
  const db = await getDb();
  const [theme] = await db.select().from(themesTable).where(and(eq(themesTable.appId, appId), eq(themesTable.id, 'doomed')));
  const [row] = await db.select().from(campaignsTable).where(and(eq(campaignsTable.appId, appId), eq(campaignsTable.id, 'c')));
  const audit = await db.select().from(auditLog).where(eq(auditLog.appId, appId)).orderBy(asc(auditLog.id));
  return { theme: theme ?? null, campaign: row ?? null, actions: audit.map((a) => `${a.action} ${a.target}`) };
}

/** The delete committed first: the save is refused naming the preset, and the campaign is as before. */
async function expectSaveRefused(kind: SaveKind, appId: string, save: Answer): Promise<void> {
  expect(save.status, JSON.stringify(save.body)).toBe(400);
  expect(save.body).toMatchObject({ error: 'validation_error', message: expect.stringContaining('"doomed"') });
  const state = await stateOf(appId);
  expect(state.theme).toBeNull();
  if (kind === 'update') expect(state.campaign).toMatchObject({ themeId: null, title: 'Campaign c', version: 1 });
  else expect(state.campaign).toBeNull();
  // Only the setup's writes and the delete: no campaign or mission audit row from the save.
  expect(state.actions.filter((a) => a.startsWith('campaign.') || a.startsWith('mission.update'))).toEqual(kind === 'update' ? ['campaign.create campaign:c'] : []);
  expect(state.actions).toContain('theme.delete theme:doomed');
}

/** The save committed first: the delete is refused naming the campaign, and the preset stays. */
async function expectDeleteRefused(appId: string, save: Answer, remove: Answer): Promise<void> {
  expect(save.status, JSON.stringify(save.body)).toBeLessThan(300);
  expect(remove.status, JSON.stringify(remove.body)).toBe(409);
  expect(remove.body).toMatchObject({ error: 'conflict', message: expect.stringContaining('"c"') });
  const state = await stateOf(appId);
  expect(state.theme).toMatchObject({ id: 'doomed', version: 1 });
  expect(state.campaign).toMatchObject({ themeId: 'doomed', title: 'Themed' });
  expect(state.actions).not.toContain('theme.delete theme:doomed');
}

describe('a preset deleted around a campaign save that names it, one after the other', () => {
  for (const kind of SAVES) {
    it(`${kind}: after the delete, the save is 400 naming the preset and writes nothing`, async () => {
      const { appId, save, remove } = await setUp(kind);
      expect((await remove()).status).toBe(204);
      await expectSaveRefused(kind, appId, await save());
    });

    it(`${kind}: after the save, the delete is 409 naming the campaign`, async () => {
      const { appId, save, remove } = await setUp(kind);
      const saved = await save();
      await expectDeleteRefused(appId, saved, await remove());
    });
  }
});

describe('a preset deleted around a campaign save that names it, fired together', () => {
  for (const kind of SAVES) {
    for (const first of ['save', 'delete'] as const) {
      it(`${kind}, ${first} sent first: one of the two orders, never a 500 nor a half-write`, async () => {
        const { appId, save, remove } = await setUp(kind);
        const [saved, removed] = first === 'save' ? await Promise.all([save(), remove()]) : await Promise.all([save(), remove()].reverse()).then(([r, s]) => [s, r]);
        if (removed.status === 204) await expectSaveRefused(kind, appId, saved);
        else await expectDeleteRefused(appId, saved, removed);
      });
    }
  }
});

/**
 * PostgreSQL only: `first` runs up to its audit row and stops there (its
 * other writes made, its row locks held), `second` starts and waits on them;
 * then both finish.
 */
async function interleaved(first: () => Promise<Answer>, second: () => Promise<Answer>): Promise<[Answer, Answer]> {
  const blocker = new pg.Client({ connectionString: process.env.DATABASE_URL });
  const watcher = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await Promise.all([blocker.connect(), watcher.connect()]);
  /** Backends of this database waiting on a lock held by `pids` (the blocker, then the first request). */
  const waitingOn = async (pids: number[]): Promise<number[]> => {
    const { rows } = await watcher.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and pg_blocking_pids(pid) && $1::int[]`,
      [pids],
    );
    return rows.map((r) => r.pid);
  };
  const until = async <T>(what: string, probe: () => Promise<T | null>): Promise<T> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const value = await probe();
      if (value !== null) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  try {
    const blockerPid = (await blocker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
    await blocker.query('begin');
    // Readers go on; every insert into the audit log waits.
    await blocker.query('lock table audit_log in share mode');
    const one = first();
    const [firstPid] = await until('the first request to reach its audit row', async () => {
      const pids = await waitingOn([blockerPid]);
      return pids.length === 1 ? pids : null;
    });
    const two = second();
    await until('the second request to wait on the first', async () => ((await waitingOn([firstPid])).length > 0 ? true : null));
    await blocker.query('commit');
    return await Promise.all([one, two]);
  } finally {
    await blocker.query('rollback').catch(() => undefined);
    await Promise.all([blocker.end(), watcher.end()]);
  }
}

describe.skipIf(!postgres)('a preset deleted during a campaign save that names it, interleaved on PostgreSQL', () => {
  for (const kind of SAVES) {
    it(`${kind}: the delete holds the preset when the save reaches it: the save is 400 naming the preset, nothing half-written`, async () => {
      const { appId, save, remove } = await setUp(kind);
      const [removed, saved] = await interleaved(remove, save);
      expect(removed.status).toBe(204);
      await expectSaveRefused(kind, appId, saved);
    });

    it(`${kind}: the save holds the preset when the delete reaches it: the delete is 409 naming the campaign`, async () => {
      const { appId, save, remove } = await setUp(kind);
      const [saved, removed] = await interleaved(save, remove);
      await expectDeleteRefused(appId, saved, removed);
    });
  }
});
