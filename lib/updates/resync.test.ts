// Catalog edits on the stream (docs/api.md, "State from the database"): a
// console edit of a mission's count, its archiving and a catalog PUT of its
// window send each user holding a record of it the mission's new reading, as
// GET /v1/missions/:id shows it; a user without a record gets nothing. Runs
// over real HTTP on the backend of the pass (embedded, or PostgreSQL + Redis).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MissionInput } from '@/lib/contract/mission';
import { waitUntil } from '@/lib/testing/faults';
import { openSse } from '@/lib/testing/sse-client';
import { createTestApp, issueToken, putCatalog, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';

const mission: MissionInput = { id: 'm', title: 'Play', criteria: { eventName: 'play', count: 3 }, reward: { kind: 'currency', currency: 'gems', amount: 1 } };

describe('catalog edits reach the streams of the mission’s holders', () => {
  let server: TestServer;
  let app: TestApp;

  beforeAll(async () => {
    server = await startTestServer();
    app = await createTestApp(server, { missions: [mission], campaigns: [] });
  });
  afterAll(async () => {
    await server?.close();
  });

  const admin = (method: string, route: string, body?: unknown) =>
    fetch(`${server.url}/api/admin/apps/${app.appId}${route}`, {
      method,
      headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('count changed (console), archived (console), window changed (catalog PUT)', async () => {
    const holder = uniqueId('holder');
    const bystander = uniqueId('bystander');
    const token = await issueToken(server, app, holder);
    const played = await fetch(`${server.url}/v1/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: holder, name: 'play', payload: {}, timestamp: Date.now() }),
    });
    expect(played.status).toBe(200);
    const stream = await openSse(`${server.url}/v1/sse/updates?access_token=${encodeURIComponent(token)}`);
    const other = await openSse(`${server.url}/v1/sse/updates?access_token=${encodeURIComponent(await issueToken(server, app, bystander))}`);
    const ofMission = () => stream.updates.filter((u) => u.data.missionId === 'm');
    const read = async () => {
      const res = await fetch(`${server.url}/v1/missions/m`, { headers: { Authorization: `Bearer ${token}` } });
      return ((await res.json()) as { progress: Record<string, unknown> }).progress;
    };

    const current = (await (await admin('GET', '/missions/m')).json()) as { version: number } & MissionInput;
    const edited = await admin('PUT', '/missions/m', { ...mission, version: current.version, criteria: { eventName: 'play', count: 5 } });
    expect(edited.status).toBe(200);
    await stream.waitFor(() => ofMission().at(-1)?.data.targetCount === 5, 'the new target on the stream');
    expect(ofMission().at(-1)).toMatchObject({ type: 'mission.progress', data: await read() });

    const archived = await admin('POST', '/missions/m/archive');
    expect(archived.status).toBe(200);
    await stream.waitFor(() => ofMission().length >= 2, 'a message after archiving');
    expect(ofMission().at(-1)?.data).toEqual(await read());

    const put = await putCatalog(server, app.appId, { missions: [{ ...mission, archived: false, criteria: { eventName: 'play', count: 5, window: 'daily' } }], campaigns: [] });
    expect(put.status).toBe(200);
    await stream.waitFor(() => ofMission().length >= 3, 'a message after the window change');
    expect(ofMission().at(-1)?.data).toEqual(await read());

    // The bystander has no record of the mission: nothing about it on their stream.
    expect(other.updates.filter((u) => u.data.missionId === 'm')).toEqual([]);
    await stream.close();
    await other.close();
  }, 120_000);

  // A campaign's window decides whether events count and whether the mission
  // is listed or locked, but not the record's reading (status, counts,
  // progress: toMissionProgress takes no campaign), which is all a stream
  // message carries. So a campaign window edit sends nothing, and the
  // stream's last word still equals GET /v1/missions/:id. Should the reading
  // ever depend on the campaign, this fails until such edits resync too.
  it('campaign window moved (console, then catalog PUT): the stream still ends on the read, nothing to resend', async () => {
    const day = 86_400_000;
    const now = Date.now();
    const campaign = { id: 'c', title: 'Season', startAt: now - day, endAt: now + day };
    const inCampaign: MissionInput = { ...mission, id: 'cm', campaignId: 'c' };
    const own = await createTestApp(server, { missions: [inCampaign], campaigns: [campaign] });
    const holder = uniqueId('campaign-holder');
    const token = await issueToken(server, own, holder);
    const stream = await openSse(`${server.url}/v1/sse/updates?access_token=${encodeURIComponent(token)}`);
    const played = await fetch(`${server.url}/v1/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: holder, name: 'play', payload: {}, timestamp: Date.now() }),
    });
    expect(played.status).toBe(200);
    const read = async () => {
      const res = await fetch(`${server.url}/v1/missions/cm`, { headers: { Authorization: `Bearer ${token}` } });
      return ((await res.json()) as { mission: { locked?: boolean }; progress: Record<string, unknown> });
    };
    const last = () => stream.updates.filter((u) => u.data.missionId === 'cm').at(-1)?.data;
    await stream.waitFor(() => last()?.currentCount === 1, 'the event on the stream');

    // Console: the start moved into the future (the mission is locked for everyone now).
    const { campaign: current } = (await (await fetch(`${server.url}/api/admin/apps/${own.appId}/campaigns/c`, { headers: { Authorization: `Bearer ${server.adminKey}` } })).json()) as { campaign: { version: number } };
    const moved = await fetch(`${server.url}/api/admin/apps/${own.appId}/campaigns/c`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...campaign, startAt: now + day, endAt: now + 2 * day, version: current.version }),
    });
    expect(moved.status, await moved.clone().text()).toBe(200);
    const locked = await read();
    expect(locked.mission.locked).toBe(true);
    expect(last()).toEqual(locked.progress);

    // Catalog PUT: the campaign ended yesterday.
    const put = await putCatalog(server, own.appId, { missions: [inCampaign], campaigns: [{ ...campaign, startAt: now - 2 * day, endAt: now - day }] });
    expect(put.status).toBe(200);
    const ended = await read();
    expect(ended.mission.locked).toBe(false);
    expect(last()).toEqual(ended.progress);
    // Every catalog edit so far has run both of its passes (the settle pass too): still one message for
    // the mission, equal to the read. A resync sent would be on the stream by then (published in its pass).
    const { resyncFigures } = await import('@/lib/updates/resync');
    const started = resyncFigures().catalogEdits;
    expect(started).toBeGreaterThanOrEqual(2);
    await waitUntil(() => resyncFigures().catalogEditsDone >= started, 'the catalog edits’ passes to be over', 60_000);
    // The user's update log (what the stream is fed from) holds no second message either.
    const { getUpdateLog, userLogKey } = await import('@/lib/updates/log');
    const logged = (await getUpdateLog().readAfter(userLogKey(own.appId, holder), '0-0')).filter((e) => (JSON.parse(e.update) as { data?: { missionId?: string } }).data?.missionId === 'cm');
    expect(logged).toHaveLength(1);
    expect(stream.updates.filter((u) => u.data.missionId === 'cm')).toHaveLength(1);
    await stream.close();
  }, 120_000);
});
