// subscribe() with scripted transports: dedupe, replay after polling, EventSource fallback.
import { describe, expect, it } from 'vitest';
import { createCore } from './http';
import { DeliveredState } from './state';
import { subscribe } from './subscription';
import { eventSourceTransport, type StreamHandlers, type StreamTransport } from './transports';
import type { FetchLike, MissionProgress, SdkUpdate } from './types';

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
const flush = () => new Promise((r) => setTimeout(r, 0));

/** Timers the test fires by hand (each subscribe() timer kind gets a distinct delay in these tests). */
function manualTimers() {
  let next = 0;
  const pending = new Map<number, { fn: () => void; ms: number }>();
  return {
    timers: {
      setTimeout: (fn: () => void, ms: number) => {
        pending.set(++next, { fn, ms });
        return next;
      },
      clearTimeout: (h: unknown) => void pending.delete(h as number),
    },
    delays: () => [...pending.values()].map((t) => t.ms),
    fire(ms: number) {
      for (const [h, t] of [...pending]) {
        if (t.ms !== ms) continue;
        pending.delete(h);
        t.fn();
      }
    },
  };
}

class FakeEventSource {
  static instances: FakeEventSource[] = [];
  onopen: ((e: unknown) => void) | null = null;
  onmessage: ((e: { data: string; lastEventId: string }) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  closed = false;
  constructor(public url: string) {
    FakeEventSource.instances.push(this);
  }
  close() {
    this.closed = true;
  }
}

/** A scripted stream: refuses connections while `down`, else opens and exposes the handlers. */
function scriptedStream() {
  const s = {
    down: false,
    handlers: null as StreamHandlers | null,
    lastIds: [] as (string | null)[],
    transport: ((req) => {
      s.lastIds.push(req.lastEventId);
      if (s.down) return void queueMicrotask(() => req.handlers.onClose(new Error('refused (scripted)')));
      s.handlers = req.handlers;
      req.handlers.onOpen();
    }) as StreamTransport,
  };
  return s;
}

/** GET /v1/missions and /v1/balance answered from a mutable state (the polling fallback's view). */
function fakeService() {
  const svc = {
    progress: {} as Record<string, MissionProgress>,
    balances: [] as { userId: string; currency: string; amount: number; updatedAt: number }[],
    core: null as unknown as ReturnType<typeof createCore>,
  };
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  const fetch: FetchLike = async (input) => {
    const path = new URL(input).pathname;
    if (path === '/v1/missions') return json({ missions: [{ id: 'm', reward: { kind: 'currency', currency: 'gems', amount: 5 } }], progress: svc.progress, nextCursor: null });
    if (path === '/v1/balance') return json({ balances: svc.balances });
    return new Response('{}', { status: 500 });
  };
  svc.core = createCore({ baseUrl: 'http://sdk.invalid', token: 't', fetch });
  return svc;
}

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

  // Rule (review #3): stream messages are ordered and deduplicated by id; updatedAt is never compared
  // between them (another instance's clock, or concurrent requests, can give a later message a smaller updatedAt).
  it('delivers an ordered stream message even when its updatedAt is older than the last one seen', async () => {
    const stream = scriptedStream();
    const got: string[] = [];
    const sub = subscribe(core, (u) => got.push(u.type), { transport: stream.transport });
    await flush();
    stream.handlers!.onMessage('1-0', msg({ type: 'mission.progress', data: progress('m', 2, 'active', 50) }));
    stream.handlers!.onMessage('2-0', msg({ type: 'mission.completed', data: progress('m', 3, 'completed', 40) }));
    stream.handlers!.onMessage('3-0', msg({ type: 'balance.changed', data: { userId: 'u', currency: 'gems', amount: 50, updatedAt: 100 } }));
    stream.handlers!.onMessage('4-0', msg({ type: 'balance.changed', data: { userId: 'u', currency: 'gems', amount: 60, updatedAt: 90 } }));
    expect(got).toEqual(['mission.progress', 'mission.completed', 'balance.changed', 'balance.changed']);
    sub.close();
  });

  // Rule (review #4): an empty or blank lastEventId is no id (no empty Last-Event-ID header).
  it('treats an empty or blank lastEventId option as absent', async () => {
    for (const lastEventId of ['', '   ']) {
      const stream = scriptedStream();
      const sub = subscribe(core, () => undefined, { transport: stream.transport, lastEventId });
      await flush();
      expect(stream.lastIds).toEqual([null]);
      expect(sub.lastEventId).toBeNull();
      sub.close();
    }
  });
});

describe('polling, then the stream back (replay window)', () => {
  const opts = (timers: ReturnType<typeof manualTimers>['timers']) => ({
    failuresBeforePolling: 1,
    backoff: { baseMs: 1, maxMs: 1, jitter: 'none' as const },
    pollIntervalMs: 777,
    replayWindowMs: 999,
    idleTimeoutMs: 555_555,
    timers,
  });

  /** Polls once with no stream (baseline), then once after the claim (synthesized grant), then opens the stream. */
  async function claimedWhilePolling() {
    const svc = fakeService();
    svc.progress.m = progress('m', 1, 'active', 10);
    const stream = scriptedStream();
    stream.down = true;
    const t = manualTimers();
    const got: string[] = [];
    const sub = subscribe(svc.core, (u, meta) => got.push(`${meta.source}:${u.type}`), { ...opts(t.timers), transport: stream.transport });
    await flush();
    await flush();
    expect(sub.state).toBe('polling');
    svc.progress.m = progress('m', 3, 'claimed', 40);
    svc.balances = [{ userId: 'u', currency: 'gems', amount: 5, updatedAt: 40 }];
    t.fire(777);
    await flush();
    expect(got).toEqual(['poll:reward.granted', 'poll:balance.changed']);
    stream.down = false;
    t.fire(1);
    await flush();
    await flush();
    expect(sub.state).toBe('open');
    return { sub, stream, got, t };
  }
  const newCycle = (h: StreamHandlers) => {
    h.onMessage('20-0', msg({ type: 'mission.progress', data: progress('m', 1, 'active', 50) }));
    h.onMessage('21-0', msg({ type: 'mission.completed', data: progress('m', 3, 'completed', 60) }));
    h.onMessage('22-0', msg({ type: 'reward.granted', data: { userId: 'u', missionId: 'm', reward: { kind: 'currency', currency: 'gems', amount: 5 } } }));
  };

  it('drops the replay of what polling told, then delivers a new cycle of the mission', async () => {
    const { sub, stream, got } = await claimedWhilePolling();
    const h = stream.handlers!;
    h.onMessage('10-0', msg({ type: 'mission.completed', data: progress('m', 3, 'completed', 30) }));
    h.onMessage('11-0', msg({ type: 'reward.granted', data: { userId: 'u', missionId: 'm', reward: { kind: 'currency', currency: 'gems', amount: 5 } } }));
    h.onMessage('12-0', msg({ type: 'balance.changed', data: { userId: 'u', currency: 'gems', amount: 5, updatedAt: 40 } }));
    newCycle(h);
    expect(got).toEqual(['poll:reward.granted', 'poll:balance.changed', 'stream:mission.progress', 'stream:mission.completed', 'stream:reward.granted']);
    sub.close();
  });

  // Rule (review, synthesized grants): a polled reward.granted stands only for a grant that precedes, in the
  // stream, any newer state of that mission; it must not swallow the next genuine grant (a recurring mission's
  // new cycle) when the replay could not include the original (log trimmed after a long outage).
  it('a synthesized reward.granted does not swallow the genuine grant of the next cycle', async () => {
    const { sub, stream, got } = await claimedWhilePolling();
    newCycle(stream.handlers!); // within the replay window, the original grant not replayed
    expect(got).toEqual(['poll:reward.granted', 'poll:balance.changed', 'stream:mission.progress', 'stream:mission.completed', 'stream:reward.granted']);
    sub.close();
  });

  it('after the replay window, stream messages are not compared with what polling told', async () => {
    const { sub, stream, got, t } = await claimedWhilePolling();
    t.fire(999);
    // Another instance's clock: a genuine later balance with a smaller updatedAt than the polled one.
    stream.handlers!.onMessage('30-0', msg({ type: 'balance.changed', data: { userId: 'u', currency: 'gems', amount: 9, updatedAt: 39 } }));
    expect(got.at(-1)).toBe('stream:balance.changed');
    sub.close();
  });
});

describe('idle watchdog', () => {
  // Rule (review #2): EventSource never surfaces `: keep-alive` comments, so a quiet healthy EventSource stream
  // must not be declared dead; that transport relies on its onerror.
  it('is not armed for the EventSource transport', async () => {
    FakeEventSource.instances = [];
    const t = manualTimers();
    const sub = subscribe(core, () => undefined, { transport: eventSourceTransport(FakeEventSource), idleTimeoutMs: 45_000, timers: t.timers });
    await flush();
    const es = FakeEventSource.instances[0];
    es.onopen?.({});
    es.onmessage?.({ data: msg({ type: 'mission.progress', data: progress('m', 1, 'active', 1) }), lastEventId: '1-0' });
    expect(t.delays()).not.toContain(45_000);
    t.fire(45_000);
    expect(sub.state).toBe('open');
    expect(es.closed).toBe(false);
    expect(FakeEventSource.instances).toHaveLength(1);
    sub.close();
  });

  it('is armed for a transport that reports activity (fetch): silence means a dead connection', async () => {
    const stream = scriptedStream();
    const t = manualTimers();
    const sub = subscribe(core, () => undefined, { transport: stream.transport, idleTimeoutMs: 45_000, backoff: { baseMs: 7, jitter: 'none' }, timers: t.timers });
    await flush();
    expect(t.delays()).toEqual([45_000]);
    stream.handlers!.onActivity(); // a keep-alive comment re-arms it
    expect(t.delays()).toEqual([45_000]);
    t.fire(45_000);
    expect(sub.state).toBe('reconnecting');
    expect(t.delays()).toEqual([7]);
    sub.close();
    expect(t.delays()).toEqual([]);
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
    s.beginReplayWindow(); // the stream is back after polling
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
    s.beginReplayWindow();
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
