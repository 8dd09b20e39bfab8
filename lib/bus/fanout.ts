// Many local listeners over one broker subscription per channel: the broker
// is asked to subscribe for the first listener and to unsubscribe when the
// last one leaves, however many parts of the app listen.
import { deliver, type Listener } from './listener';
import type { Unsubscribe } from './types';

export interface ChannelTransport {
  /** Subscribes at the broker; resolves once the broker confirmed. */
  open(channel: string): Promise<void>;
  /** Unsubscribes at the broker. */
  shut(channel: string): Promise<void>;
}

interface Entry {
  listeners: Set<Listener>;
  ready: Promise<void>;
}

export class Fanout {
  private readonly channels = new Map<string, Entry>();

  constructor(private readonly transport: ChannelTransport) {}

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<Unsubscribe> {
    const listener: Listener = { onMessage };
    let entry = this.channels.get(channel);
    if (!entry) {
      // Later subscribers of the channel wait on this same confirmation.
      entry = { listeners: new Set(), ready: this.transport.open(channel) };
      this.channels.set(channel, entry);
    }
    const joined = entry;
    joined.listeners.add(listener);
    try {
      await joined.ready;
    } catch (err) {
      // The broker never confirmed, so there is nothing to unsubscribe.
      this.leave(channel, joined, listener);
      throw err;
    }
    let left = false;
    return async () => {
      if (left) return;
      left = true;
      if (this.leave(channel, joined, listener)) await this.transport.shut(channel);
    };
  }

  /** Hands a broker message to the channel's current listeners, in order. */
  dispatch(channel: string, message: string): void {
    const entry = this.channels.get(channel);
    if (!entry) return;
    for (const l of [...entry.listeners]) if (entry.listeners.has(l)) deliver(l, channel, message);
  }

  /** True while the channel has listeners here (or a subscription on its way for one). */
  listening(channel: string): boolean {
    return this.channels.has(channel);
  }

  /** Forgets every listener (on close; the connection goes with them). */
  clear(): void {
    this.channels.clear();
  }

  /** Removes a listener; true when it was the channel's last one. */
  private leave(channel: string, entry: Entry, listener: Listener): boolean {
    entry.listeners.delete(listener);
    if (entry.listeners.size > 0 || this.channels.get(channel) !== entry) return false;
    // Dropped before the broker answers, so a new subscriber starts a fresh
    // SUBSCRIBE that the broker processes after this UNSUBSCRIBE.
    this.channels.delete(channel);
    return true;
  }
}
