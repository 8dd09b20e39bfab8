// The pure parts of recommendations (who is a candidate, the fallback order,
// the validation of a model's answer) and the default deadline of 5 s with
// its configuration.
import { tmpdir } from 'node:os';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildCatalog } from '@/lib/catalog/catalog';
import { ConfigError, loadConfig } from '@/lib/config';
import type { Campaign, Mission, ProgressRecord } from '@/lib/missions/schema';
import { listCandidates, rankFallback, type Candidate } from './candidates';
import { rankWithModel, RecommendationFailure, validateAnswer } from './rank-with-model';

const NOW = Date.UTC(2026, 5, 10, 12);
const DAY = 86_400_000;

function m(id: string, overrides: Partial<Mission> = {}): Mission {
  return {
    id,
    title: id,
    description: '',
    criteria: { eventName: 'play', count: 4, window: 'lifetime' },
    reward: { kind: 'currency', currency: 'gems', amount: 1 },
    campaignId: null,
    expiresAt: null,
    iconUrl: null,
    prerequisites: [],
    archived: false,
    ...overrides,
  };
}

function rec(missionId: string, status: ProgressRecord['status'], currentCount: number, overrides: Partial<ProgressRecord> = {}): ProgressRecord {
  return { userId: 'u', missionId, status, currentCount, targetCount: 4, windowStart: 0, cycle: 1, updatedAt: NOW, ...overrides };
}

function camp(id: string, startAt: number, endAt: number): Omit<Campaign, 'missionIds'> {
  return { id, title: id, description: '', startAt, endAt, bannerUrl: '', archived: false };
}

const ids = (cs: Candidate[]) => cs.map((c) => c.mission.id);

describe('candidates: what the user can still progress or claim', () => {
  it('keeps active, new and completed missions; drops claimed, locked, expired, not-started, ended and archived ones', () => {
    const catalog = buildCatalog(
      'app',
      [
        m('active'),
        m('new'),
        m('completed'),
        m('completed-expired', { expiresAt: NOW - 1 }),
        m('claimed'),
        m('locked', { prerequisites: ['active'] }),
        m('expired', { expiresAt: NOW - 1 }),
        m('not-started', { campaignId: 'soon' }),
        m('ended', { campaignId: 'over' }),
        m('archived', { archived: true }),
        m('daily-claimed-yesterday', { criteria: { eventName: 'play', count: 1, window: 'daily' } }),
        m('daily-claimed-today', { criteria: { eventName: 'play', count: 1, window: 'daily' } }),
      ],
      [camp('soon', NOW + DAY, NOW + 2 * DAY), camp('over', NOW - 2 * DAY, NOW - DAY)],
      NOW,
    );
    const today = Date.UTC(2026, 5, 10);
    const records = new Map(
      [
        rec('active', 'active', 2),
        rec('completed', 'completed', 4),
        rec('completed-expired', 'completed', 4),
        rec('claimed', 'claimed', 4),
        rec('daily-claimed-yesterday', 'claimed', 1, { targetCount: 1, windowStart: today - DAY }),
        rec('daily-claimed-today', 'claimed', 1, { targetCount: 1, windowStart: today }),
      ].map((r) => [r.missionId, r]),
    );
    const candidates = listCandidates(catalog, records, NOW);
    expect(ids(candidates).sort()).toEqual(['active', 'completed', 'completed-expired', 'daily-claimed-yesterday', 'new'].sort());
    expect(candidates.find((c) => c.mission.id === 'daily-claimed-yesterday')).toMatchObject({ status: 'active', currentCount: 0, targetCount: 1 });
    expect(candidates.find((c) => c.mission.id === 'completed')).toMatchObject({ status: 'completed', currentCount: 4 });
  });
});

describe('the fallback order', () => {
  const c = (id: string, status: Candidate['status'], currentCount: number, targetCount: number, createdAt = 0): Candidate => ({
    mission: m(id),
    campaign: null,
    status,
    currentCount,
    targetCount,
    createdAt,
  });

  it('puts claimable first, then the larger fraction done, then fewer events left, then the newest, then the id', () => {
    const ranked = rankFallback([
      c('z-new-empty', 'active', 0, 5, 300),
      c('b-old-empty', 'active', 0, 5, 100),
      c('a-old-empty', 'active', 0, 5, 100),
      c('half-of-10', 'active', 5, 10),
      c('half-of-2', 'active', 1, 2),
      c('three-quarters', 'active', 3, 4),
      c('claim-me', 'completed', 2, 2),
    ]);
    expect(ids(ranked)).toEqual(['claim-me', 'three-quarters', 'half-of-2', 'half-of-10', 'z-new-empty', 'a-old-empty', 'b-old-empty']);
  });
});

describe("validating the model's answer", () => {
  const candidates = ['a', 'b', 'c'].map((id) => ({ mission: m(id), campaign: null, status: 'active' as const, currentCount: 0, targetCount: 4, createdAt: 0 }));
  it.each([
    [{ missionIds: [], reason: 'x' }, 'empty'],
    [{ missionIds: ['a', 'b', 'c'], reason: 'x' }, 'too_many_ids'],
    [{ missionIds: ['a', 'a'], reason: 'x' }, 'duplicate_ids'],
    [{ missionIds: ['a', 'zz'], reason: 'x' }, 'unknown_ids'],
    [{ missionIds: ['a'], reason: ' ' }, 'invalid_output'],
    [{ missionIds: ['a'], reason: 'x'.repeat(501) }, 'invalid_output'],
  ])('refuses %j as %s', (answer, kind) => {
    expect(() => validateAnswer(answer, candidates, 2)).toThrow(expect.objectContaining({ kind }));
  });
  it('accepts a valid answer, trimming the reason', () => {
    expect(validateAnswer({ missionIds: ['c', 'a'], reason: ' Go. ' }, candidates, 2)).toEqual({ missionIds: ['c', 'a'], reason: 'Go.' });
  });
});

describe('the model deadline', () => {
  afterEach(() => vi.useRealTimers());
  const env = { QUESTLINE_DATA_DIR: tmpdir(), JWT_SECRET: 'x'.repeat(40), ADMIN_API_KEY: 'y'.repeat(20) };

  it('is 5 s by default (OPENAI_TIMEOUT_MS), and a bad value or base URL stops start-up naming the variable', () => {
    expect(loadConfig(env).openaiTimeoutMs).toBe(5_000);
    expect(loadConfig({ ...env, OPENAI_TIMEOUT_MS: '800' }).openaiTimeoutMs).toBe(800);
    expect(() => loadConfig({ ...env, OPENAI_TIMEOUT_MS: 'soon' })).toThrow(new ConfigError('OPENAI_TIMEOUT_MS', 'must be an integer from 50 to 60000 (got "soon")'));
    expect(() => loadConfig({ ...env, OPENAI_BASE_URL: 'ftp://models' })).toThrow(/OPENAI_BASE_URL/);
    expect(loadConfig({ ...env, OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }).openaiBaseUrl).toBe('http://127.0.0.1:11434/v1');
  });

  it('gives a model that never answers exactly the default 5 s, then fails with `timeout`', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const model = new MockLanguageModelV3({ doGenerate: () => new Promise<LanguageModelV3GenerateResult>(() => undefined) });
    const candidates = [{ mission: m('a'), campaign: null, status: 'active' as const, currentCount: 0, targetCount: 4, createdAt: 0 }];
    let settled: unknown = 'pending';
    const call = rankWithModel({ model, timeoutMs: loadConfig(env).openaiTimeoutMs, candidates, limit: 3, now: NOW }).catch((err: unknown) => (settled = err));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(settled).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(settled).toBeInstanceOf(RecommendationFailure);
    expect(settled).toMatchObject({ kind: 'timeout' });
  });
});
