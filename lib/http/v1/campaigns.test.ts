// GET /v1/campaigns and GET /v1/campaigns/:id over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, startTestServer, type TestServer } from '@/lib/testing/test-server';
import { campaign, DAY, mission, newUser } from '@/lib/testing/fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

interface CampaignBody {
  id: string;
  title: string;
  description: string;
  startAt: number;
  endAt: number;
  missionIds: string[];
  theme?: { primaryColor: string };
  bannerUrl: string;
}

function catalogAt(now: number) {
  return {
    campaigns: [
      campaign('ended', { startAt: now - 10 * DAY, endAt: now - DAY }),
      campaign('running', { startAt: now - DAY, endAt: now + DAY, theme: { primaryColor: '#ff8800' } }),
      campaign('upcoming', { startAt: now + DAY, endAt: now + 2 * DAY }),
    ],
    missions: [
      mission('r2', { campaignId: 'running' }),
      mission('r1', { campaignId: 'running' }),
      mission('u1', { campaignId: 'upcoming' }),
      mission('loose'),
    ],
  };
}

describe('GET /v1/campaigns', () => {
  it('hides ended campaigns (endAt before now) and shows running and upcoming ones', async () => {
    const app = await createTestApp(server, catalogAt(Date.now()));
    const user = await newUser(server, app);
    const { status, body } = await user.getJson<{ campaigns: CampaignBody[] }>('/v1/campaigns');
    expect(status).toBe(200);
    expect(body.campaigns.map((c) => c.id)).toEqual(['running', 'upcoming']);
  });

  it('shows ended campaigns too with include=expired', async () => {
    const app = await createTestApp(server, catalogAt(Date.now()));
    const user = await newUser(server, app);
    const { body } = await user.getJson<{ campaigns: CampaignBody[] }>('/v1/campaigns?include=expired');
    expect(body.campaigns.map((c) => c.id)).toEqual(['ended', 'running', 'upcoming']);
  });

  it('gives bannerUrl on every campaign, theme only when set, and missionIds derived from the missions', async () => {
    const now = Date.now();
    const app = await createTestApp(server, catalogAt(now));
    const user = await newUser(server, app);
    const { body } = await user.getJson<{ campaigns: CampaignBody[] }>('/v1/campaigns');
    const [running, upcoming] = body.campaigns;
    expect(running).toEqual({
      id: 'running',
      title: 'Campaign running',
      description: 'About running',
      startAt: now - DAY,
      endAt: now + DAY,
      missionIds: ['r1', 'r2'],
      theme: { primaryColor: '#ff8800' },
      bannerUrl: 'https://cdn.example.com/running.png',
    });
    expect(upcoming).not.toHaveProperty('theme');
    expect(upcoming.bannerUrl).toBe('https://cdn.example.com/upcoming.png');
    expect(upcoming.missionIds).toEqual(['u1']);
  });

  it('rejects an unknown include value with 400 validation_error', async () => {
    const app = await createTestApp(server, catalogAt(Date.now()));
    const user = await newUser(server, app);
    const { status, body } = await user.getJson<{ error: string; message: string }>('/v1/campaigns?include=everything');
    expect(status).toBe(400);
    expect(body.error).toBe('validation_error');
    expect(body.message).toMatch(/include/);
  });
});

describe('GET /v1/campaigns/:id', () => {
  it('answers {campaign} and, with include=missions, the campaign’s missions', async () => {
    const app = await createTestApp(server, catalogAt(Date.now()));
    const user = await newUser(server, app);
    const plain = await user.getJson<{ campaign: CampaignBody; missions?: unknown }>('/v1/campaigns/running');
    expect(plain.status).toBe(200);
    expect(plain.body.campaign).toMatchObject({ id: 'running', missionIds: ['r1', 'r2'] });
    expect(plain.body).not.toHaveProperty('missions');
    const hydrated = await user.getJson<{ campaign: CampaignBody; missions: { id: string; campaignId: string }[] }>('/v1/campaigns/running?include=missions');
    expect(hydrated.body.campaign.id).toBe('running');
    expect(hydrated.body.missions.map((m) => [m.id, m.campaignId])).toEqual([
      ['r1', 'running'],
      ['r2', 'running'],
    ]);
  });

  it('gives each hydrated mission the caller’s locked flag (campaign not started, or prerequisite unclaimed)', async () => {
    const now = Date.now();
    const app = await createTestApp(server, {
      campaigns: [campaign('running', { startAt: now - DAY, endAt: now + DAY }), campaign('upcoming', { startAt: now + DAY, endAt: now + 2 * DAY })],
      missions: [
        mission('r1', { campaignId: 'running' }),
        mission('r2', { campaignId: 'running', prerequisites: ['r1'] }),
        mission('u1', { campaignId: 'upcoming' }),
      ],
    });
    const user = await newUser(server, app);
    const lockedOf = async (id: string) => {
      const { body } = await user.getJson<{ missions: { id: string; locked: boolean }[] }>(`/v1/campaigns/${id}?include=missions`);
      return body.missions.map((m) => [m.id, m.locked]);
    };
    expect(await lockedOf('running')).toEqual([['r1', false], ['r2', true]]);
    expect(await lockedOf('upcoming')).toEqual([['u1', true]]);
    await user.event('play');
    expect((await user.claim('r1')).status).toBe(200);
    expect(await lockedOf('running')).toEqual([['r1', false], ['r2', false]]);
  });

  it('leaves archived missions out of missionIds, as include=missions does', async () => {
    const now = Date.now();
    const app = await createTestApp(server, {
      campaigns: [campaign('running', { startAt: now - DAY, endAt: now + DAY })],
      missions: [mission('r1', { campaignId: 'running' }), mission('r2', { campaignId: 'running', archived: true })],
    });
    const user = await newUser(server, app);
    const detail = await user.getJson<{ campaign: CampaignBody; missions: { id: string }[] }>('/v1/campaigns/running?include=missions');
    expect(detail.body.campaign.missionIds).toEqual(['r1']);
    expect(detail.body.missions.map((m) => m.id)).toEqual(['r1']);
    const list = await user.getJson<{ campaigns: CampaignBody[] }>('/v1/campaigns');
    expect(list.body.campaigns[0].missionIds).toEqual(['r1']);
  });

  it('answers an ended campaign by id', async () => {
    const app = await createTestApp(server, catalogAt(Date.now()));
    const user = await newUser(server, app);
    expect((await user.getJson('/v1/campaigns/ended')).status).toBe(200);
  });

  it('answers 404 campaign_not_found for an unknown id and for another app’s campaign', async () => {
    const app = await createTestApp(server, catalogAt(Date.now()));
    await createTestApp(server, { campaigns: [campaign('theirs')] });
    const user = await newUser(server, app);
    for (const id of ['nope', 'theirs']) {
      const { status, body } = await user.getJson<{ error: string }>(`/v1/campaigns/${id}`);
      expect(status).toBe(404);
      expect(body.error).toBe('campaign_not_found');
    }
  });
});
