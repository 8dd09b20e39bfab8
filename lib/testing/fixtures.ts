// Test support: catalog builders and small HTTP steps shared by the real-HTTP suites.
import type { CampaignInput } from '@/lib/contract/campaign';
import type { MissionInput } from '@/lib/contract/mission';
import type { ThemePresetInput } from '@/lib/contract/theme';
import { issueToken, uniqueId, userClient, type TestApp, type TestServer } from './test-server';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** A mission that completes after `count` events named `eventName` (default: one "play" event), rewarding 10 gems. */
export function mission(id: string, overrides: Partial<MissionInput> = {}): MissionInput {
  return {
    id,
    title: `Mission ${id}`,
    criteria: { eventName: 'play', count: 1 },
    reward: { kind: 'currency', currency: 'gems', amount: 10 },
    ...overrides,
  };
}

export function campaign(id: string, overrides: Partial<CampaignInput> = {}): CampaignInput {
  const now = Date.now();
  return {
    id,
    title: `Campaign ${id}`,
    description: `About ${id}`,
    startAt: now - DAY,
    endAt: now + 7 * DAY,
    bannerUrl: `https://cdn.example.com/${id}.png`,
    ...overrides,
  };
}

type UserClient = ReturnType<typeof userClient>;

export interface TestUser {
  userId: string;
  token: string;
  client: UserClient;
  /** POST /v1/events for this user; answers the parsed response. */
  event(name: string, payload?: Record<string, unknown>, timestamp?: number): Promise<{ status: number; body: { missionsUpdated: string[] } & Record<string, unknown> }>;
  claim(missionId: string, idempotencyKey?: string): Promise<Response>;
  getJson<T = Record<string, unknown>>(route: string): Promise<{ status: number; body: T }>;
}

export async function newUser(server: TestServer, app: TestApp, userId = uniqueId('user')): Promise<TestUser> {
  const token = await issueToken(server, app, userId);
  const client = userClient(server, token);
  return {
    userId,
    token,
    client,
    async event(name, payload = {}, timestamp = Date.now()) {
      const res = await client.post('/v1/events', { userId, name, payload, timestamp });
      return { status: res.status, body: (await res.json()) as { missionsUpdated: string[] } };
    },
    claim: (missionId, idempotencyKey) =>
      client.post(`/v1/missions/${encodeURIComponent(missionId)}/claim`, undefined, idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
    async getJson<T>(route: string) {
      const res = await client.get(route);
      return { status: res.status, body: (await res.json()) as T };
    },
  };
}

/** A theme preset with every colour set. */
export function themePreset(id: string, overrides: Partial<ThemePresetInput> = {}): ThemePresetInput {
  return { id, name: `Theme ${id}`, primaryColor: '#7c3aed', accentColor: '#f59e0b', backgroundColor: '#0f172a', textColor: '#f8fafc', ...overrides };
}
