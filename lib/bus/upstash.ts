// Pub/sub over Upstash REST: PUBLISH is a plain request, and @upstash/redis
// 1.39's redis.subscribe() holds one SSE stream (a long-lived fetch) per
// channel. Best effort, not exercised here (no Upstash server in tests):
// - if the stream drops, @upstash/redis neither reports it nor reconnects,
//   so that channel goes quiet until it is subscribed again;
// - SSE is line-based, so a message containing a line break cannot be sent.
import type { Redis } from '@upstash/redis';
import { logError } from '@/lib/log';
import { Fanout } from './fanout';
import type { Bus, Unsubscribe } from './types';
import { metrics } from '@/lib/metrics';

type Subscriber = ReturnType<Redis['subscribe']>;

export class UpstashBus implements Bus {
  readonly kind = 'upstash' as const;
  private readonly streams = new Map<string, Subscriber>();
  private readonly fanout = new Fanout({ open: (c) => this.open(c), shut: (c) => this.shut(c) });
  private closed = false;

  /** `redis` must have automatic deserialisation off, so messages stay strings. */
  constructor(
    private readonly redis: Redis,
    private readonly confirmTimeoutMs = 10_000,
  ) {}

  async publish(channel: string, message: string): Promise<void> {
    this.assertOpen();
    if (/[\r\n]/.test(message)) throw new Error('the Upstash bus cannot carry line breaks (SSE framing)');
    await this.redis.publish(channel, message);
  }

  subscribe(channel: string, onMessage: (message: string) => void): Promise<Unsubscribe> {
    this.assertOpen();
    return this.fanout.subscribe(channel, onMessage);
  }

  onResubscribed(): () => void {
    // @upstash/redis neither reports a dropped stream nor reconnects it (see above).
    return () => undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.fanout.clear();
    const streams = [...this.streams.values()];
    this.streams.clear();
    await Promise.all(streams.map((s) => s.unsubscribe()));
  }

  /** Opens the stream; live once the server sends its "subscribe" event. */
  private open(channel: string): Promise<void> {
    const stream = this.redis.subscribe<string>(channel);
    this.streams.set(channel, stream);
    stream.on('message', ({ message }) => this.fanout.dispatch(channel, String(message)));
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (err?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (!err) return resolve();
        if (this.streams.get(channel) === stream) this.streams.delete(channel);
        void stream.unsubscribe();
        reject(err);
      };
      const timer = setTimeout(() => settle(new Error(`no SUBSCRIBE confirmation for ${channel}`)), this.confirmTimeoutMs);
      stream.on('subscribe', () => settle());
      stream.on('error', (err) => {
        if (settled) {
          metrics().busErrors.inc({ operation: 'subscribe' });
          logError('upstash subscription failed', err, { channel });
        }
        else settle(err);
      });
    });
  }

  private async shut(channel: string): Promise<void> {
    const stream = this.streams.get(channel);
    this.streams.delete(channel);
    // Aborting the fetch ends the SSE stream, which unsubscribes server-side.
    await stream?.unsubscribe();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('bus is closed');
  }
}
