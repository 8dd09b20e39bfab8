// What the subscriber has been told, per mission and per currency, so that a
// stream replay after polling (or a poll after a replay) never repeats an
// update, and the polling fallback can synthesize updates from differences.
// A port of the TypeScript SDK's state.ts: stream messages are never compared
// with one another by updatedAt; the comparison only reconciles polling with
// the stream (poll-synthesized updates always, stream messages only during
// the replay window right after the stream came back from polling).
using System.Collections.Generic;

namespace Questline
{
    internal sealed class Snapshot
    {
        public List<Mission> Missions = new List<Mission>();
        public Dictionary<string, MissionProgress> Progress = new Dictionary<string, MissionProgress>();
        public List<Balance> Balances = new List<Balance>();
    }

    internal sealed class DeliveredState
    {
        private sealed class Known
        {
            public string Status;
            public long Count;
            public double UpdatedAt;
            public bool Polled;
        }

        private readonly Dictionary<string, Known> progress = new Dictionary<string, Known>();
        private readonly Dictionary<string, Known> balances = new Dictionary<string, Known>();
        private readonly Dictionary<string, int> pendingGrants = new Dictionary<string, int>();
        private Snapshot baseline;
        private bool replaying;

        private static int Rank(string status)
        {
            switch (status)
            {
                case "locked": return 0;
                case "active": return 1;
                case "completed": return 2;
                case "claimed": return 3;
                default: return 1;
            }
        }

        private static bool SameOrOlder(Known k, string status, long count, double updatedAt)
        {
            return k != null && (updatedAt < k.UpdatedAt || (updatedAt == k.UpdatedAt && Rank(status) <= Rank(k.Status) && count <= k.Count));
        }

        private bool Compares(bool fromStream, Known known)
        {
            return !fromStream || (replaying && known != null && known.Polled);
        }

        /// <summary>Records an update about to be delivered; false when it is stale or already told.</summary>
        public bool Accept(SdkUpdate update, bool fromStream)
        {
            var d = update.Data ?? new SdkUpdateData();
            Known k;
            switch (update.Type)
            {
                case SdkUpdate.TypeMissionProgress:
                case SdkUpdate.TypeMissionCompleted:
                {
                    var id = d.MissionId ?? "";
                    progress.TryGetValue(id, out k);
                    var count = d.CurrentCount ?? 0;
                    var at = d.UpdatedAt ?? 0;
                    if (Compares(fromStream, k) && SameOrOlder(k, d.Status, count, at)) return false;
                    if (fromStream) pendingGrants.Remove(id);
                    progress[id] = new Known { Status = d.Status, Count = count, UpdatedAt = at, Polled = !fromStream };
                    return true;
                }
                case SdkUpdate.TypeBalanceChanged:
                {
                    var currency = d.Currency ?? "";
                    balances.TryGetValue(currency, out k);
                    var amount = d.Amount ?? 0;
                    var at = d.UpdatedAt ?? 0;
                    if (Compares(fromStream, k) && k != null && (at < k.UpdatedAt || (at == k.UpdatedAt && amount == k.Count))) return false;
                    balances[currency] = new Known { Count = amount, UpdatedAt = at, Polled = !fromStream };
                    return true;
                }
                case SdkUpdate.TypeRewardGranted:
                {
                    var id = d.MissionId ?? "";
                    int pending;
                    pendingGrants.TryGetValue(id, out pending);
                    if (fromStream && pending > 0)
                    {
                        if (pending == 1) pendingGrants.Remove(id);
                        else pendingGrants[id] = pending - 1;
                        return false;
                    }
                    if (!fromStream) pendingGrants[id] = pending + 1;
                    progress.TryGetValue(id, out k);
                    progress[id] = new Known { Status = "claimed", Count = k != null ? k.Count : -1, UpdatedAt = k != null ? k.UpdatedAt : 0, Polled = !fromStream };
                    return true;
                }
                default:
                    return true;
            }
        }

        public void BeginReplayWindow()
        {
            replaying = true;
        }

        public void EndReplayWindow()
        {
            replaying = false;
            pendingGrants.Clear();
        }

        /// <summary>After a poll was delivered: the polled records are what the subscriber now knows.</summary>
        public void Absorb(Snapshot now)
        {
            foreach (var p in now.Progress.Values)
            {
                Known k;
                if (progress.TryGetValue(p.MissionId, out k) && p.UpdatedAt >= k.UpdatedAt)
                    progress[p.MissionId] = new Known { Status = p.Status, Count = p.CurrentCount, UpdatedAt = p.UpdatedAt, Polled = true };
            }
        }

        public bool HasBaseline { get { return baseline != null; } }

        public void SetBaseline(Snapshot s)
        {
            baseline = s;
        }

        /// <summary>The updates that turn what was told (or the baseline) into <paramref name="now"/>.</summary>
        public List<SdkUpdate> Diff(Snapshot now)
        {
            var output = new List<SdkUpdate>();
            var rewards = new Dictionary<string, Reward>();
            foreach (var m in now.Missions) rewards[m.Id] = m.Reward;
            if (baseline != null) foreach (var m in baseline.Missions) if (!rewards.ContainsKey(m.Id)) rewards[m.Id] = m.Reward;
            foreach (var cur in now.Progress.Values)
            {
                var b = BaselineProgress(cur.MissionId);
                if (cur.UpdatedAt < b.UpdatedAt) continue;
                if (cur.Status == b.Status && cur.CurrentCount == b.Count) continue;
                if (cur.Status == ProgressStatus.Claimed)
                {
                    Reward reward;
                    if (b.Status != ProgressStatus.Claimed && rewards.TryGetValue(cur.MissionId, out reward) && reward != null)
                        output.Add(new SdkUpdate
                        {
                            Type = SdkUpdate.TypeRewardGranted,
                            Data = new SdkUpdateData { UserId = cur.UserId, MissionId = cur.MissionId, Reward = reward },
                        });
                }
                else if (cur.Status == ProgressStatus.Completed)
                {
                    if (b.Status != ProgressStatus.Completed) output.Add(SdkUpdate.Of(SdkUpdate.TypeMissionCompleted, cur.ToJson()));
                }
                else if (cur.Status == ProgressStatus.Active)
                {
                    output.Add(SdkUpdate.Of(SdkUpdate.TypeMissionProgress, cur.ToJson()));
                }
            }
            foreach (var cur in now.Balances)
            {
                Known known;
                if (!balances.TryGetValue(cur.Currency, out known))
                {
                    known = new Known { Count = 0, UpdatedAt = 0 };
                    if (baseline != null)
                        foreach (var b in baseline.Balances)
                            if (b.Currency == cur.Currency)
                            {
                                known = new Known { Count = b.Amount, UpdatedAt = b.UpdatedAt };
                                break;
                            }
                }
                if (cur.Amount != known.Count && cur.UpdatedAt >= known.UpdatedAt) output.Add(SdkUpdate.Of(SdkUpdate.TypeBalanceChanged, cur.ToJson()));
            }
            return output;
        }

        private Known BaselineProgress(string missionId)
        {
            Known told;
            if (progress.TryGetValue(missionId, out told)) return told;
            MissionProgress p;
            if (baseline != null && baseline.Progress.TryGetValue(missionId, out p))
                return new Known { Status = p.Status, Count = p.CurrentCount, UpdatedAt = p.UpdatedAt, Polled = true };
            return new Known { Status = ProgressStatus.Active, Count = 0, UpdatedAt = 0, Polled = true };
        }
    }
}
