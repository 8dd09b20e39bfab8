// What the subscriber has been told, per mission and per currency, so that a
// stream replay after polling (or a poll after a replay) never repeats an
// update, and the polling fallback can synthesize updates from differences.
//
// Stream messages are ordered and deduplicated by id: they are never compared
// with one another by `updatedAt` (clocks of several instances, or concurrent
// requests, can give a later message a smaller one). The comparison only
// reconciles polling with the stream: for poll-synthesized updates, and for
// stream messages in the replay window right after the stream came back from
// polling, against what polling told.
import type { Balance, Mission, MissionProgress, SdkUpdate } from './types';

interface KnownProgress {
  status: MissionProgress['status'];
  currentCount: number;
  updatedAt: number;
  /** Told by polling (or absorbed from a poll) rather than by the stream. */
  polled: boolean;
}

interface KnownBalance {
  amount: number;
  updatedAt: number;
  polled: boolean;
}

export interface Snapshot {
  missions: Mission[];
  progress: Record<string, MissionProgress>;
  balances: Balance[];
}

const RANK: Record<MissionProgress['status'], number> = { locked: 0, active: 1, completed: 2, claimed: 3 };
/** Already told: older, or of the same instant and not further along. */
const sameOrOlder = (k: KnownProgress | undefined, p: MissionProgress) =>
  k !== undefined &&
  (p.updatedAt < k.updatedAt || (p.updatedAt === k.updatedAt && RANK[p.status] <= RANK[k.status] && p.currentCount <= k.currentCount));

export class DeliveredState {
  private progress = new Map<string, KnownProgress>();
  private balances = new Map<string, KnownBalance>();
  /** Silent state from the first poll of an outage: the base for missions never delivered. */
  private baseline: Snapshot | null = null;
  /** reward.granted synthesized by polling, to drop when the stream replays the real one. */
  private pendingGrants = new Map<string, number>();
  /** The stream just came back from polling: its replay may repeat what polling told. */
  private replaying = false;

  /** Records an update about to be delivered; false when it is stale or already told. */
  accept(update: SdkUpdate, fromStream: boolean): boolean {
    switch (update.type) {
      case 'mission.progress':
      case 'mission.completed': {
        const d = update.data;
        const k = this.progress.get(d.missionId);
        if (this.compares(fromStream, k) && sameOrOlder(k, d)) return false;
        // A newer state of the mission on the (ordered) stream: the real grant a polled one stood for
        // came before it, so a pending synthesized grant must not swallow a later genuine one.
        if (fromStream) this.pendingGrants.delete(d.missionId);
        this.progress.set(d.missionId, { status: d.status, currentCount: d.currentCount, updatedAt: d.updatedAt, polled: !fromStream });
        return true;
      }
      case 'balance.changed': {
        const d = update.data;
        const k = this.balances.get(d.currency);
        if (this.compares(fromStream, k) && k && (d.updatedAt < k.updatedAt || (d.updatedAt === k.updatedAt && d.amount === k.amount))) return false;
        this.balances.set(d.currency, { amount: d.amount, updatedAt: d.updatedAt, polled: !fromStream });
        return true;
      }
      case 'reward.granted': {
        const id = update.data.missionId;
        const pending = this.pendingGrants.get(id) ?? 0;
        if (fromStream && pending > 0) {
          if (pending === 1) this.pendingGrants.delete(id);
          else this.pendingGrants.set(id, pending - 1);
          return false;
        }
        if (!fromStream) this.pendingGrants.set(id, pending + 1);
        const k = this.progress.get(id);
        this.progress.set(id, { status: 'claimed', currentCount: k?.currentCount ?? -1, updatedAt: k?.updatedAt ?? 0, polled: !fromStream });
        return true;
      }
      default:
        return true;
    }
  }

  /** Poll-synthesized updates are always reconciled; stream messages only against polled state, in the replay window. */
  private compares(fromStream: boolean, known: { polled: boolean } | undefined): boolean {
    return !fromStream || (this.replaying && known?.polled === true);
  }

  /** The stream is back after polling: its replay is matched against what polling told. */
  beginReplayWindow(): void {
    this.replaying = true;
  }

  /** The replay had time to arrive: stream messages are taken as they come, synthesized grants forgotten. */
  endReplayWindow(): void {
    this.replaying = false;
    this.pendingGrants.clear();
  }

  /** After a poll was delivered: the polled records are what the subscriber now knows. */
  absorb(now: Snapshot): void {
    for (const p of Object.values(now.progress)) {
      const k = this.progress.get(p.missionId);
      if (k && p.updatedAt >= k.updatedAt) this.progress.set(p.missionId, { status: p.status, currentCount: p.currentCount, updatedAt: p.updatedAt, polled: true });
    }
  }

  hasBaseline(): boolean {
    return this.baseline !== null;
  }

  setBaseline(s: Snapshot): void {
    this.baseline = s;
  }

  /** The updates that turn what was told (or the baseline) into `now`. */
  diff(now: Snapshot): SdkUpdate[] {
    const out: SdkUpdate[] = [];
    // A mission's whole bundle (a server before bundles sends `reward` alone): one reward.granted per reward, as the claim's stream does.
    const rewards = new Map(now.missions.map((m) => [m.id, m.rewards ?? [m.reward]]));
    for (const m of this.baseline?.missions ?? []) if (!rewards.has(m.id)) rewards.set(m.id, m.rewards ?? [m.reward]);
    for (const cur of Object.values(now.progress)) {
      const base = this.baselineProgress(cur.missionId);
      if (!base || cur.updatedAt < base.updatedAt) continue;
      if (cur.status === base.status && cur.currentCount === base.currentCount) continue;
      if (cur.status === 'claimed') {
        if (base.status !== 'claimed') for (const reward of rewards.get(cur.missionId) ?? []) out.push({ type: 'reward.granted', data: { userId: cur.userId, missionId: cur.missionId, reward } });
      } else if (cur.status === 'completed') {
        if (base.status !== 'completed') out.push({ type: 'mission.completed', data: cur });
      } else if (cur.status === 'active') {
        out.push({ type: 'mission.progress', data: cur });
      }
    }
    for (const cur of now.balances) {
      const known = this.balances.get(cur.currency) ?? this.baseline?.balances.find((b) => b.currency === cur.currency) ?? { amount: 0, updatedAt: 0 };
      if (cur.amount !== known.amount && cur.updatedAt >= known.updatedAt) out.push({ type: 'balance.changed', data: cur });
    }
    return out;
  }

  private baselineProgress(missionId: string): KnownProgress {
    const told = this.progress.get(missionId);
    if (told) return told;
    const p = this.baseline?.progress[missionId];
    return p ? { status: p.status, currentCount: p.currentCount, updatedAt: p.updatedAt, polled: true } : { status: 'active', currentCount: 0, updatedAt: 0, polled: true };
  }
}
