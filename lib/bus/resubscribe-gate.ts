// The hold-and-release of a Redis bus's subscriber side, shared by RedisBus
// (one subscriber connection) and RedisClusterBus (one per shard): from a drop
// of a subscriber connection until the listeners of onResubscribed are told
// (the channels are live again), every message heard is held, then dispatched
// right after telling them. A listener that reads what it missed (a stream
// reads the update log) must see those messages after the gap, or it would
// take a later message for its place and never read an earlier one it missed.
import type { Fanout } from './fanout';

export class ResubscribeGate {
  private readonly listeners = new Set<() => void>();
  /** From a drop until release(): the messages heard meanwhile; null when nothing is held back. */
  private held: Array<[channel: string, message: string]> | null = null;

  /** `maxHeld`: past it, messages are dispatched at once (a stream's catch-up reads the log anyway). */
  constructor(
    private readonly fanout: Fanout,
    private readonly maxHeld = Number.POSITIVE_INFINITY,
  ) {}

  /** True from a drop until the release that ends the gap. */
  get holding(): boolean {
    return this.held !== null;
  }

  /** A message from the broker: held during a gap, else dispatched to the channel's listeners. */
  heard(channel: string, message: string): void {
    if (this.held && this.held.length < this.maxHeld) this.held.push([channel, message]);
    else this.fanout.dispatch(channel, message);
  }

  /** A subscriber connection dropped: what is heard from now on waits for release(). */
  hold(): void {
    this.held ??= [];
  }

  onResubscribed(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * The channels are live again: tells the listeners, then dispatches what
   * was held. `keepHolding`: part of them is still away (a shard failing
   * over), so what comes next is held again until the next release.
   */
  release(keepHolding = false): void {
    for (const listener of [...this.listeners]) listener();
    const held = this.held ?? [];
    this.held = keepHolding ? [] : null;
    for (const [channel, message] of held) this.fanout.dispatch(channel, message);
  }

  /** On close: no listener, nothing held. */
  clear(): void {
    this.listeners.clear();
    this.held = null;
  }
}
