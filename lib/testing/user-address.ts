// Test support: every admin operation on one user, for user ids no path
// segment carries as such (`.`, `..`) and ids that look like routes or URL
// syntax (`export`, `by-id`, `a/b`, `50%`, `what?`), over real HTTP against
// any server (the in-process Node server, `npm start`, `next start`). Each id
// gets its own amounts, so an answer for another user cannot pass.
import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { adminUserPath } from '@/lib/contract/user-address';

const AWKWARD_USER_IDS = ['.', '..', 'export', 'by-id', 'a/b', '50%', 'what?', '%2E%2E'] as const;

export const ADDRESS_CATALOG = {
  campaigns: [],
  missions: [{ id: 'two-wins', title: 'Win twice', criteria: { eventName: 'match_won', count: 2, window: 'lifetime' as const }, reward: { kind: 'currency' as const, currency: 'gold', amount: 25 } }],
};

interface Target {
  url: string;
  adminKey: string;
}

async function call(target: Target, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(target.url + path, {
    method,
    headers: { Authorization: `Bearer ${target.adminKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A GET sent with its path exactly as given: no URL parser resolves its dot segments on the way. */
function rawGet(target: Target, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const { hostname, port } = new URL(target.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: 'GET', headers: { Authorization: `Bearer ${target.adminKey}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : { text } }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Creates each user (a test event), then inspects, grants, notes, completes and resets a mission, exports, streams, searches and revokes each. */
export async function exerciseUsers(target: Target, appId: string, ids: readonly string[] = AWKWARD_USER_IDS): Promise<void> {
  const path = (id: string, rest = '', query: Record<string, string> = {}) => adminUserPath(appId, id, rest, query);
  for (const [i, id] of ids.entries()) {
    const amount = i + 1;
    const event = await call(target, 'POST', path(id, '/events'), { name: 'match_won', payload: { n: amount } });
    expect(event, id).toMatchObject({ status: 200, body: { missionsUpdated: ['two-wins'] } });
    const page = await call(target, 'GET', path(id, '/events', { name: 'match_won', limit: '10' }));
    expect(page, id).toMatchObject({ status: 200, body: { events: [expect.objectContaining({ name: 'match_won' })] } });
    const dry = await call(target, 'POST', path(id, '/events', { dryRun: '1' }), { name: 'match_won', payload: {} });
    expect(dry.status, id).toBe(200);
    expect(dry.body.verdicts, id).toEqual([expect.objectContaining({ missionId: 'two-wins', counted: true })]);
    const grant = await call(target, 'POST', path(id, '/grants'), { currency: 'gold', amount, reason: `ticket ${amount}: address test` }, { 'Idempotency-Key': randomUUID() });
    expect(grant, id).toMatchObject({ status: 200, body: { balance: { userId: id, amount } } });
    expect((await call(target, 'POST', path(id, '/notes'), { text: `note for ${id}` })).status, id).toBe(200);
    expect((await call(target, 'GET', path(id, '/notes'))).body.notes, id).toEqual([expect.objectContaining({ text: `note for ${id}` })]);
    const complete = await call(target, 'POST', path(id, '/missions/two-wins/complete'), { reason: 'lost a win: address test' }, { 'Idempotency-Key': randomUUID() });
    expect(complete, id).toMatchObject({ status: 200, body: { progress: { userId: id, status: 'completed' } } });
    const reset = await call(target, 'POST', path(id, '/missions/two-wins/reset'), { reason: 'back to zero: address test' }, { 'Idempotency-Key': randomUUID() });
    expect(reset, id).toMatchObject({ status: 200, body: { progress: { userId: id, status: 'active', currentCount: 0 } } });
    const inspection = await call(target, 'GET', path(id));
    expect(inspection, id).toMatchObject({ status: 200, body: { userId: id, balances: [{ currency: 'gold', amount }] } });
    const exported = await call(target, 'GET', path(id, '/export'));
    expect(exported, id).toMatchObject({ status: 200, body: { userId: id, user: { userId: id, events: 1 }, balances: [{ amount }] } });
    const stream = new AbortController();
    const updates = await fetch(target.url + path(id, '/updates'), { headers: { Authorization: `Bearer ${target.adminKey}`, Accept: 'text/event-stream' }, signal: stream.signal });
    expect([updates.status, updates.headers.get('content-type')], id).toEqual([200, expect.stringContaining('text/event-stream')]);
    stream.abort();
    const found = await call(target, 'GET', `/api/admin/apps/${appId}/users?query=${encodeURIComponent(id)}`);
    expect((found.body.users as Array<{ userId: string }>).map((u) => u.userId), id).toContain(id);
    expect(await call(target, 'POST', `/api/admin/apps/${appId}/revocations`, { userId: id }), id).toMatchObject({ status: 200, body: { revoked: true, userId: id } });
  }
}

/** Erases each user, checking that the others keep their data until their turn. */
export async function eraseUsers(target: Target, appId: string, ids: readonly string[] = AWKWARD_USER_IDS): Promise<void> {
  for (const [i, id] of ids.entries()) {
    const erased = await call(target, 'DELETE', adminUserPath(appId, id), { reason: 'Data-erasure request: address test' });
    expect(erased, id).toMatchObject({ status: 200, body: { erased: true, userId: id, removed: { ledger: 1, notes: 1 } } });
    expect((await call(target, 'GET', adminUserPath(appId, id))).body.balances, id).toEqual([]);
    for (const [j, other] of ids.entries()) {
      if (j > i) expect((await call(target, 'GET', adminUserPath(appId, other))).body.balances, `${other} after erasing ${id}`).toEqual([expect.objectContaining({ amount: j + 1 })]);
    }
  }
}

/** Dot segments as a client may send them (raw): refused with 400, never answered for the route they resolve to. */
export async function expectDotSegmentsRefused(target: Target, appId: string): Promise<void> {
  const base = `/api/admin/apps/${appId}/users`;
  for (const path of [`${base}/%2E/export`, `${base}/./export`, `${base}/%2E%2E`, `${base}/..`, `${base}/.%2e/export`, `${base}/%2e`, `/v1/missions/%2E%2E/claim`]) {
    const res = await rawGet(target, path);
    expect([path, res.status, res.body.error], path).toEqual([path, 400, 'validation_error']);
    expect(String(res.body.message), path).toContain('by-id');
  }
}
