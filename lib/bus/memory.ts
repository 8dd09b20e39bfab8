// In-process bus: reaches subscribers of this process only (one instance).
import type { Bus, Unsubscribe } from './types';
import { deliver, type Listener } from './listener';

export class MemoryBus implements Bus {
  readonly kind = 'memory' as const;
  private readonly channels = new Map<string, Set<Listener>>();
  private closed = false;

  async publish(channel: string, message: string): Promise<void> {
    this.assertOpen();
    const listeners = this.channels.get(channel);
    if (!listeners || listeners.size === 0) return;
    const targets = [...listeners];
    // Asynchronous like a real broker, so publishers never run subscriber
    // code on their own stack; microtasks run FIFO, so order is kept.
    queueMicrotask(() => {
      // Skip anyone who unsubscribed between publish and delivery.
      for (const l of targets) if (listeners.has(l)) deliver(l, channel, message);
    });
  }

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<Unsubscribe> {
    this.assertOpen();
    // A fresh object per call: subscribing one function twice gives two
    // independent subscriptions, each with its own unsubscribe.
    const listener: Listener = { onMessage };
    let listeners = this.channels.get(channel);
    if (!listeners) this.channels.set(channel, (listeners = new Set()));
    listeners.add(listener);
    return async () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.channels.get(channel) === listeners) this.channels.delete(channel);
    };
  }

  onResubscribed(): () => void {
    // One process, no connection: nothing published is ever missed.
    return () => undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const listeners of this.channels.values()) listeners.clear();
    this.channels.clear();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('bus is closed');
  }
}
