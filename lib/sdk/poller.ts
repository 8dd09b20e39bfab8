// The polling fallback of a subscription: while the stream is down (after
// repeated failures) it polls and synthesizes updates from differences; when
// the stream is back, one last poll and a replay window reconcile the two.
import type { Core } from './http';
import { fetchSnapshot } from './polling';
import type { DeliveredState } from './state';
import type { SubscribeOptions, Timers, UpdateMeta } from './subscription-types';
import type { SdkUpdate } from './types';

export interface PollerDeps {
  core: Core;
  delivered: DeliveredState;
  timers: Timers;
  options: Pick<SubscribeOptions, 'pollIntervalMs' | 'replayWindowMs'>;
  deliver(update: SdkUpdate, meta: UpdateMeta): void;
  reportError(err: Error): void;
  isClosed(): boolean;
}

export class Poller {
  /** Polling is running (the stream is down). */
  active = false;
  /** Polling told things since the stream was last open: its next open starts a replay window. */
  private reconcile = false;
  private generation = 0;
  private pollTimer: unknown = null;
  private replayTimer: unknown = null;

  constructor(private readonly deps: PollerDeps) {}

  start(): void {
    this.active = true;
    this.reconcile = true;
    // A replay window still running belongs to the previous return of the stream: the next one starts its own
    // (its timer must not forget the grants synthesized by this round of polling).
    this.replayTimer = this.clear(this.replayTimer);
    const pgen = ++this.generation;
    const tick = async () => {
      this.pollTimer = null;
      await this.pollOnce(pgen);
      if (pgen === this.generation && this.active && !this.deps.isClosed()) {
        this.pollTimer = this.deps.timers.setTimeout(() => void tick(), this.deps.options.pollIntervalMs ?? 10_000);
      }
    };
    void tick();
  }

  stop(): void {
    this.active = false;
    this.generation += 1;
    this.pollTimer = this.clear(this.pollTimer);
  }

  /** Stops everything, the replay window included (the subscription is closing). */
  dispose(): void {
    this.replayTimer = this.clear(this.replayTimer);
    this.stop();
  }

  /**
   * The stream is open. Also after polling ended by a fatal 401 and
   * reconnect(): what polling told is still to reconcile. The stream replays
   * what it can; one last poll covers what it cannot.
   */
  streamOpened(): void {
    if (!this.reconcile) return;
    this.reconcile = false;
    const { delivered, timers, options } = this.deps;
    delivered.beginReplayWindow();
    void this.pollOnce(this.generation);
    this.replayTimer = this.clear(this.replayTimer);
    this.replayTimer = timers.setTimeout(() => {
      this.replayTimer = null;
      delivered.endReplayWindow();
    }, options.replayWindowMs ?? 15_000);
  }

  /** Best effort, at the first failure: the state to diff against if polling starts. */
  async captureBaseline(): Promise<void> {
    const { core, delivered, isClosed } = this.deps;
    try {
      const snapshot = await fetchSnapshot(core);
      if (!isClosed() && !delivered.hasBaseline()) delivered.setBaseline(snapshot);
    } catch {
      // the service is down too: the first poll will be the baseline
    }
  }

  private async pollOnce(pgen: number): Promise<void> {
    const { core, delivered, deliver, reportError, isClosed } = this.deps;
    try {
      const snapshot = await fetchSnapshot(core);
      if (pgen !== this.generation || isClosed()) return;
      if (!delivered.hasBaseline()) return delivered.setBaseline(snapshot);
      for (const update of delivered.diff(snapshot)) deliver(update, { id: null, source: 'poll' });
      delivered.absorb(snapshot);
      delivered.setBaseline(snapshot);
    } catch (err) {
      if (pgen === this.generation) reportError(err as Error);
    }
  }

  private clear(handle: unknown): null {
    if (handle !== null) this.deps.timers.clearTimeout(handle);
    return null;
  }
}
