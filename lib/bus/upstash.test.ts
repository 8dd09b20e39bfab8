// UpstashBus without a server: a stand-in for @upstash/redis checks our side
// (waiting for the SSE "subscribe" event, ref-counting, cleanup). The real
// wire behaviour is only covered by the Upstash contract run in bus.test.ts.
import type { Redis } from '@upstash/redis';
import { describe, expect, it } from 'vitest';
import { UpstashBus } from './upstash';

type Handler = (data: unknown) => void;

class FakeStream {
  readonly handlers = new Map<string, Handler[]>();
  unsubscribed = false;
  on(type: string, h: Handler): void {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), h]);
  }
  emit(type: string, data: unknown): void {
    for (const h of this.handlers.get(type) ?? []) h(data);
  }
  async unsubscribe(): Promise<void> {
    this.unsubscribed = true;
  }
}

function fakeRedis() {
  const streams: FakeStream[] = [];
  const published: [string, string][] = [];
  const redis = {
    subscribe: () => {
      const s = new FakeStream();
      streams.push(s);
      return s;
    },
    publish: async (channel: string, message: string) => {
      published.push([channel, message]);
      return 1;
    },
  };
  return { redis: redis as unknown as Redis, streams, published };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('UpstashBus (stand-in client)', () => {
  it('resolves subscribe only after the server confirmed, sharing one stream per channel', async () => {
    const { redis, streams } = fakeRedis();
    const bus = new UpstashBus(redis);
    let live = false;
    const first = bus.subscribe('c', () => {}).then((off) => ((live = true), off));
    const second = bus.subscribe('c', () => {});
    await tick();
    expect(live).toBe(false);
    expect(streams).toHaveLength(1);
    streams[0].emit('subscribe', 1);
    const offs = await Promise.all([first, second]);
    await offs[0]();
    expect(streams[0].unsubscribed).toBe(false);
    await offs[1]();
    expect(streams[0].unsubscribed).toBe(true);
    await bus.close();
  });

  it('hands messages to every listener as strings', async () => {
    const { redis, streams } = fakeRedis();
    const bus = new UpstashBus(redis);
    const got: string[] = [];
    const pending = bus.subscribe('c', (m) => got.push(m));
    streams[0].emit('subscribe', 1);
    await pending;
    streams[0].emit('message', { channel: 'c', message: '{"a":1}' });
    expect(got).toEqual(['{"a":1}']);
    await bus.close();
    expect(streams[0].unsubscribed).toBe(true);
  });

  it('fails subscribe on a stream error or a missing confirmation, and cleans up', async () => {
    const { redis, streams } = fakeRedis();
    const bus = new UpstashBus(redis, 30);
    const failing = bus.subscribe('a', () => {});
    streams[0].emit('error', new Error('401 Unauthorized'));
    await expect(failing).rejects.toThrow(/401/);
    expect(streams[0].unsubscribed).toBe(true);
    await expect(bus.subscribe('b', () => {})).rejects.toThrow(/no SUBSCRIBE confirmation/);
    // A later subscribe to the failed channel starts over with a new stream.
    const retry = bus.subscribe('a', () => {});
    streams[2].emit('subscribe', 1);
    await expect(retry).resolves.toBeTypeOf('function');
    await bus.close();
  });

  it('publishes, refusing line breaks that SSE framing would split', async () => {
    const { redis, published } = fakeRedis();
    const bus = new UpstashBus(redis);
    await bus.publish('c', 'one line');
    await expect(bus.publish('c', 'two\nlines')).rejects.toThrow(/line breaks/);
    expect(published).toEqual([['c', 'one line']]);
    await bus.close();
  });
});
