// subscribe() with scripted transports: dedupe, replay after polling, EventSource fallback.
import { describe, expect, it } from 'vitest';
import { createCore } from './http';
import { DeliveredState } from './state';
import { subscribe } from './subscription';
import { eventSourceTransport, type StreamHandlers, type StreamTransport } from './transports';
import type { MissionProgress, SdkUpdate } from './types';

const progress = (missionId: string, currentCount: number, status: MissionProgress['status'], updatedAt: number): MissionProgress => ({
  userId: 'u',
  missionId,
  status,
  currentCount,
  targetCount: 3,
  progress: Math.min(1, currentCount / 3),
  updatedAt,
});
const msg = (u: SdkUpdate) => JSON.stringify(u);
const core = createCore({ baseUrl: 'http://sdk.invalid', token: 't', fetch: async () => new Response('{}', { status: 500 }) });

describe('subscription delivery', () => {
  it('never delivers the same id twice, even across reconnections', async () => {
    let handlers: StreamHandlers | null = null;
    const lastIds: (string | null)[] = [];
    const scripted: StreamTransport = (req) => {
      handlers = req.handlers;
      lastIds.push(req.lastEventId);
      req.handlers.onOpen();
    };
    const got: (string | null)[] = [];
    const sub = subscribe(core, (_u, meta) => got.push(meta.id), { transport: scripted });
    await Promise.resolve();
    const a = msg({ type: 'mission.progress', data: progress('m', 1, 'active', 1) });
    const b = msg({ type: 'mission.progress', data: progress('m', 2, 'active', 2) });
    handlers!.onMessage('1-0', a);
    handlers!.onMessage('1-0', a);
    sub.reconnect();
    await Promise.resolve();
    handlers!.onMessage('1-0', a); // a server replaying too much
    handlers!.onMessage('2-0', b);
    handlers!.onMessage(null, '{not json');
    expect(got).toEqual(['1-0', '2-0']);
    expect(lastIds).toEqual([null, '1-0']);
    sub.close();
  });
});

describe('DeliveredState (polling vs stream replay)', () => {
  it('drops a replayed update already told by polling, and the replayed reward of a polled claim', () => {
    const s = new DeliveredState();
    const polled: SdkUpdate[] = [
      { type: 'mission.completed', data: progress('m', 3, 'completed', 30) },
      { type: 'reward.granted', data: { userId: 'u', missionId: 'm', reward: { kind: 'badge', badgeId: 'b' } } },
      { type: 'balance.changed', data: { userId: 'u', currency: 'gems', amount: 5, updatedAt: 40 } },
    ];
    for (const u of polled) expect(s.accept(u, false)).toBe(true);
    // The stream then replays the originals: older progress, the same completion, the reward, the balance.
    expect(s.accept({ type: 'mission.progress', data: progress('m', 2, 'active', 20) }, true)).toBe(false);
    expect(s.accept(polled[0], true)).toBe(false);
    expect(s.accept(polled[1], true)).toBe(false);
    expect(s.accept(polled[2], true)).toBe(false);
    // Something new still goes through.
    expect(s.accept({ type: 'balance.changed', data: { userId: 'u', currency: 'gems', amount: 9, updatedAt: 41 } }, true)).toBe(true);
  });

  it('after absorbing a polled claim, a replayed completion of an earlier instant is dropped', () => {
    const s = new DeliveredState();
    expect(s.accept({ type: 'mission.progress', data: progress('m', 2, 'active', 20) }, true)).toBe(true);
    s.absorb({ missions: [], progress: { m: progress('m', 3, 'claimed', 40) }, balances: [] });
    expect(s.accept({ type: 'mission.completed', data: progress('m', 3, 'completed', 30) }, true)).toBe(false);
    expect(s.accept({ type: 'mission.progress', data: progress('m', 1, 'active', 50) }, true)).toBe(true); // a new cycle
  });

  it('diffs a poll against what was told and the baseline', () => {
    const s = new DeliveredState();
    const mission = (id: string) => ({ id, reward: { kind: 'currency' as const, currency: 'gems', amount: 5 } }) as never;
    s.setBaseline({ missions: [mission('a'), mission('b')], progress: { a: progress('a', 1, 'active', 10) }, balances: [] });
    const now = {
      missions: [mission('a'), mission('b')],
      progress: { a: progress('a', 3, 'claimed', 20), b: progress('b', 1, 'active', 15) },
      balances: [{ userId: 'u', currency: 'gems', amount: 5, updatedAt: 20 }],
    };
    expect(s.diff(now).map((u) => u.type)).toEqual(['reward.granted', 'mission.progress', 'balance.changed']);
  });
});

describe('EventSource fallback transport', () => {
  it('puts the token and the last id in the query and maps messages', async () => {
    const urls: string[] = [];
    class FakeEventSource {
      onopen: ((e: unknown) => void) | null = null;
      onmessage: ((e: { data: string; lastEventId: string }) => void) | null = null;
      onerror: ((e: unknown) => void) | null = null;
      closed = false;
      constructor(url: string) {
        urls.push(url);
        instances.push(this);
      }
      close() {
        this.closed = true;
      }
    }
    const instances: FakeEventSource[] = [];
    const got: string[] = [];
    const sub = subscribe(core, (u, meta) => got.push(`${meta.id}:${u.type}`), {
      transport: eventSourceTransport(FakeEventSource),
      lastEventId: '5-1',
    });
    await Promise.resolve();
    const es = instances[0];
    es.onopen?.({});
    expect(sub.state).toBe('open');
    es.onmessage?.({ data: msg({ type: 'mission.progress', data: progress('m', 1, 'active', 1) }), lastEventId: '6-0' });
    expect(got).toEqual(['6-0:mission.progress']);
    const url = new URL(urls[0]);
    expect(url.pathname).toBe('/v1/sse/updates');
    expect(url.searchParams.get('access_token')).toBe('t');
    expect(url.searchParams.get('lastEventId')).toBe('5-1');
    sub.close();
    expect(es.closed).toBe(true);
  });
});
