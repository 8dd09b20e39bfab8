// Subscribe(): the live stream (GET /v1/sse/updates over plain HTTP
// streaming) with reconnect (exponential backoff with jitter, Last-Event-ID
// resume, ids never delivered twice), an idle watchdog, a polling fallback
// after repeated failures or where streaming is unavailable, and a clean
// close. The behaviour of the TypeScript SDK's subscription.ts; callbacks run
// on the caller's SynchronizationContext (Unity's main thread).
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Questline
{
    public enum SubscriptionState
    {
        /// <summary>First attempt.</summary>
        Connecting,
        Open,
        /// <summary>After a failure, waiting for the next attempt.</summary>
        Reconnecting,
        /// <summary>The stream failed FailuresBeforePolling times in a row (or cannot stream here): polling, the stream retried in the background.</summary>
        Polling,
        Closed,
    }

    public enum UpdateSource
    {
        Stream,
        Poll,
    }

    /// <summary>Where an update came from: the stream (with its id) or the polling fallback (Id null).</summary>
    public sealed class UpdateMeta
    {
        public string Id { get; set; }
        public UpdateSource Source { get; set; }
    }

    public sealed class SubscribeOptions
    {
        /// <summary>(next, previous) on every change of State.</summary>
        public Action<SubscriptionState, SubscriptionState> OnStateChange { get; set; }

        /// <summary>Connection failures, fatal errors, exceptions thrown by the update callback.</summary>
        public Action<Exception> OnError { get; set; }

        /// <summary>Resume a previous session (empty or blank: none).</summary>
        public string LastEventId { get; set; }

        /// <summary>Reconnect delays (default 1 s doubling to 30 s, equal jitter).</summary>
        public BackoffOptions Backoff { get; set; }

        public int FailuresBeforePolling { get; set; } = 5;
        public int PollIntervalMs { get; set; } = 10000;

        /// <summary>A stream silent this long is treated as dead (three missed keep-alives).</summary>
        public int IdleTimeoutMs { get; set; } = 45000;

        public int ReplayWindowMs { get; set; } = 15000;

        /// <summary>Where callbacks run (default: SynchronizationContext.Current at Subscribe; none: a pool thread, in order).</summary>
        public SynchronizationContext SynchronizationContext { get; set; }
    }

    public sealed partial class SdkUpdate
    {
        internal static SdkUpdate Of(string type, Dictionary<string, object> data)
        {
            return new SdkUpdate { Type = type, Data = SdkUpdateData.FromJson(data) };
        }

        /// <summary>The data of mission.progress and mission.completed.</summary>
        public MissionProgress AsMissionProgress()
        {
            return Data == null ? null : MissionProgress.FromJson(Data.ToJson());
        }

        /// <summary>The data of balance.changed.</summary>
        public Balance AsBalance()
        {
            return Data == null ? null : Balance.FromJson(Data.ToJson());
        }
    }

    /// <summary>A live subscription: see the README for the states, the reconnect policy and the polling fallback.</summary>
    public sealed class Subscription : IDisposable
    {
        private const int SeenMax = 2000;
        private readonly QuestlineClient client;
        private readonly Action<SdkUpdate, UpdateMeta> onUpdate;
        private readonly SubscribeOptions options;
        private readonly SynchronizationContext context;
        internal readonly object Sync = new object();
        internal readonly DeliveredState Delivered = new DeliveredState();
        private readonly Poller poller;
        private readonly HashSet<string> seen = new HashSet<string>();
        private readonly Queue<string> seenOrder = new Queue<string>();
        private readonly CancellationTokenSource closing = new CancellationTokenSource();
        private CancellationTokenSource attempt;
        private CancellationTokenSource wake;
        private TaskCompletionSource<bool> restart;
        private SubscriptionState state = SubscriptionState.Connecting;
        private string lastEventId;
        private int failures;
        private bool authRetried;
        private bool everOpened;
        private bool unsupported;

        internal Subscription(QuestlineClient client, Action<SdkUpdate, UpdateMeta> onUpdate, SubscribeOptions options, SynchronizationContext current)
        {
            this.client = client;
            this.onUpdate = onUpdate;
            this.options = options;
            context = options.SynchronizationContext ?? current;
            lastEventId = string.IsNullOrWhiteSpace(options.LastEventId) ? null : options.LastEventId;
            poller = new Poller(this, client, options);
        }

        public SubscriptionState State { get { lock (Sync) return state; } }

        /// <summary>Id of the last message received (sent as Last-Event-ID on reconnect; keep it to resume a later session).</summary>
        public string LastEventId { get { lock (Sync) return lastEventId; } }

        internal bool IsClosed { get { return closing.IsCancellationRequested; } }

        internal void Start()
        {
            Task.Run(() => RunAsync());
        }

        /// <summary>Drops the connection and connects at once (also after a fatal 401).</summary>
        public void Reconnect()
        {
            lock (Sync)
            {
                if (IsClosed) return;
                authRetried = false;
                SetState(poller.Active ? SubscriptionState.Polling : everOpened ? SubscriptionState.Reconnecting : SubscriptionState.Connecting);
                if (attempt != null) attempt.Cancel();
                if (wake != null) wake.Cancel();
                if (restart != null) restart.TrySetResult(true);
            }
        }

        /// <summary>Stops the connection, the backoff, the watchdog and the polling.</summary>
        public void Close()
        {
            lock (Sync)
            {
                if (IsClosed) return;
                closing.Cancel();
                poller.Dispose();
                if (restart != null) restart.TrySetResult(false);
                SetState(SubscriptionState.Closed);
            }
        }

        public void Dispose()
        {
            Close();
        }

        private async Task RunAsync()
        {
            string freshToken = null;
            CancellationTokenSource mine = null;
            while (!IsClosed)
            {
                var previous = mine;
                lock (Sync)
                {
                    if (IsClosed) return;
                    mine = CancellationTokenSource.CreateLinkedTokenSource(closing.Token);
                    attempt = mine;
                }
                if (previous != null) previous.Dispose();
                string used = freshToken;
                freshToken = null;
                Exception failure;
                try
                {
                    if (used == null) used = await client.Tokens.GetAsync(mine.Token).ConfigureAwait(false);
                    await StreamOnceAsync(used, mine.Token).ConfigureAwait(false);
                    failure = new NetworkException("The server ended the stream");
                }
                catch (OperationCanceledException) when (mine.IsCancellationRequested)
                {
                    continue; // Reconnect() or Close()
                }
                catch (StreamUnsupportedException e)
                {
                    // Nothing to retry: poll until Reconnect() or Close().
                    lock (Sync)
                    {
                        unsupported = true;
                        Report(e);
                        if (!poller.Active) poller.Start();
                        SetState(SubscriptionState.Polling);
                    }
                    if (!await WaitForRestartAsync().ConfigureAwait(false)) return;
                    continue;
                }
                catch (QuestlineException e) when (e.Status == 401)
                {
                    // Waiting does not fix a refused token: one immediate retry with a new one, until a connection opens.
                    string fresh = null;
                    if (!authRetried && client.Tokens.CanRefresh)
                    {
                        try
                        {
                            fresh = await client.Tokens.RefreshAsync(used, closing.Token).ConfigureAwait(false);
                        }
                        catch (Exception)
                        {
                            // no new token: fatal below
                        }
                    }
                    if (IsClosed) return;
                    if (fresh != null && fresh != used)
                    {
                        authRetried = true;
                        freshToken = fresh;
                        Failed(e, 0);
                        continue;
                    }
                    lock (Sync)
                    {
                        poller.Dispose();
                        SetState(SubscriptionState.Closed);
                        Report(e as UnauthorizedException ?? new UnauthorizedException(401, "unauthorized", e.Message, e.RequestId));
                    }
                    if (!await WaitForRestartAsync().ConfigureAwait(false)) return;
                    continue;
                }
                catch (Exception e)
                {
                    failure = e;
                }
                if (IsClosed) return;
                var delay = Failed(failure, -1);
                await SleepAsync(delay).ConfigureAwait(false);
            }
        }

        /// <summary>Counts a failure and answers the delay before the next attempt.</summary>
        private long Failed(Exception error, long delayOverride)
        {
            lock (Sync)
            {
                failures += 1;
                Report(error);
                if (failures >= options.FailuresBeforePolling && !poller.Active) poller.Start();
                if (failures == 1 && !Delivered.HasBaseline) poller.CaptureBaseline();
                SetState(poller.Active ? SubscriptionState.Polling : SubscriptionState.Reconnecting);
            }
            return delayOverride >= 0 ? delayOverride : Backoff.Delay(failures - 1, options.Backoff);
        }

        private async Task SleepAsync(long ms)
        {
            CancellationTokenSource w;
            lock (Sync)
            {
                w = CancellationTokenSource.CreateLinkedTokenSource(closing.Token);
                wake = w;
            }
            try
            {
                await Task.Delay(TimeSpan.FromMilliseconds(ms), w.Token).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                // Reconnect() or Close()
            }
            lock (Sync) if (wake == w) wake = null;
            w.Dispose();
        }

        /// <summary>Waits for Reconnect() (true) or Close() (false).</summary>
        private async Task<bool> WaitForRestartAsync()
        {
            TaskCompletionSource<bool> r;
            lock (Sync)
            {
                if (IsClosed) return false;
                r = restart = new TaskCompletionSource<bool>();
            }
            var go = await r.Task.ConfigureAwait(false);
            lock (Sync)
            {
                restart = null;
                if (go && unsupported)
                {
                    unsupported = false;
                    failures = 0;
                }
            }
            return go && !IsClosed;
        }

        private async Task StreamOnceAsync(string token, CancellationToken ct)
        {
            var headers = new Dictionary<string, string> { { "Authorization", "Bearer " + token }, { "Accept", "text/event-stream" } };
            var resumeFrom = LastEventId;
            if (resumeFrom != null) headers["Last-Event-ID"] = resumeFrom;
            var request = new TransportRequest { Method = "GET", Url = client.Url("/v1/sse/updates", null), Headers = headers };
            var idleMs = options.IdleTimeoutMs;
            using (var idle = CancellationTokenSource.CreateLinkedTokenSource(ct))
            {
                idle.CancelAfter(idleMs);
                TransportStream stream;
                try
                {
                    stream = await client.Transport.OpenStreamAsync(request, idle.Token).ConfigureAwait(false);
                }
                catch (OperationCanceledException) when (!ct.IsCancellationRequested)
                {
                    throw new NetworkException("Stream connection timed out");
                }
                catch (Exception e) when (!ct.IsCancellationRequested && !(e is StreamUnsupportedException) && !(e is QuestlineException))
                {
                    throw new NetworkException("Stream connection failed: " + e.Message, e);
                }
                using (stream)
                {
                    if (stream.Status != 200) throw ErrorFactory.FromResponse(stream.Status, stream.Headers, stream.Body);
                    var type = ErrorFactory.Header(stream.Headers, "content-type") ?? "";
                    if (type.IndexOf("text/event-stream", StringComparison.OrdinalIgnoreCase) < 0)
                        throw new NetworkException("The stream answered " + (type.Length == 0 ? "no content type" : type) + ", not text/event-stream");
                    var parser = new SseParser(m =>
                    {
                        if (!ct.IsCancellationRequested) Received(m.Id, m.Data);
                    });
                    Opened();
                    while (true)
                    {
                        string chunk;
                        try
                        {
                            chunk = await stream.ReadAsync(idle.Token).ConfigureAwait(false);
                        }
                        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
                        {
                            throw new TimeoutException("No data on the stream for " + idleMs + " ms");
                        }
                        catch (Exception e) when (!ct.IsCancellationRequested && !(e is OperationCanceledException))
                        {
                            throw new NetworkException("Stream interrupted: " + e.Message, e);
                        }
                        if (chunk == null) return;
                        idle.CancelAfter(idleMs);
                        parser.Feed(chunk);
                    }
                }
            }
        }

        private void Opened()
        {
            lock (Sync)
            {
                failures = 0;
                authRetried = false;
                everOpened = true;
                poller.Stop();
                SetState(SubscriptionState.Open);
                poller.StreamOpened();
            }
        }

        private void Received(string rawId, string data)
        {
            var id = string.IsNullOrWhiteSpace(rawId) ? null : rawId;
            lock (Sync)
            {
                if (id != null)
                {
                    if (!seen.Add(id)) return;
                    seenOrder.Enqueue(id);
                    if (seenOrder.Count > SeenMax) seen.Remove(seenOrder.Dequeue());
                    lastEventId = id;
                }
            }
            SdkUpdate update;
            try
            {
                update = SdkUpdate.FromJson(Json.Parse(data));
            }
            catch (FormatException)
            {
                Report(new FormatException("Unparsable stream message: " + (data.Length > 100 ? data.Substring(0, 100) : data)));
                return;
            }
            if (update == null || update.Type == null) return;
            Deliver(update, new UpdateMeta { Id = id, Source = UpdateSource.Stream });
        }

        internal void Deliver(SdkUpdate update, UpdateMeta meta)
        {
            lock (Sync)
            {
                if (IsClosed || !Delivered.Accept(update, meta.Source == UpdateSource.Stream)) return;
                Post(() =>
                {
                    if (IsClosed) return;
                    try
                    {
                        onUpdate(update, meta);
                    }
                    catch (Exception e)
                    {
                        Report(e);
                    }
                });
            }
        }

        private void SetState(SubscriptionState next)
        {
            lock (Sync)
            {
                if (next == state) return;
                var prev = state;
                state = next;
                var listener = options.OnStateChange;
                if (listener != null) Post(() => listener(next, prev));
            }
        }

        internal void Report(Exception error)
        {
            var listener = options.OnError;
            if (listener != null) Post(() => listener(error));
        }

        /// <summary>Runs a callback on the context (in order), or at once; a throwing listener never breaks the subscription.</summary>
        private void Post(Action action)
        {
            Action safe = () =>
            {
                try
                {
                    action();
                }
                catch (Exception)
                {
                    // a listener's own failure
                }
            };
            if (context != null) context.Post(_ => safe(), null);
            else lock (Sync) safe();
        }
    }

    /// <summary>The polling fallback: every page of GET /v1/missions and GET /v1/balance, differences synthesized as updates.</summary>
    internal sealed class Poller
    {
        private readonly Subscription sub;
        private readonly QuestlineClient client;
        private readonly SubscribeOptions options;
        private CancellationTokenSource polling;
        private CancellationTokenSource replayWindow;
        private bool reconcile;
        private int generation;

        public Poller(Subscription sub, QuestlineClient client, SubscribeOptions options)
        {
            this.sub = sub;
            this.client = client;
            this.options = options;
        }

        public bool Active { get; private set; }

        // Every method is called under sub.Sync.
        public void Start()
        {
            Active = true;
            reconcile = true;
            if (replayWindow != null) replayWindow.Cancel();
            var gen = ++generation;
            var cts = polling = new CancellationTokenSource();
            Task.Run(async () =>
            {
                while (!cts.IsCancellationRequested)
                {
                    await PollOnceAsync(gen, cts.Token).ConfigureAwait(false);
                    try
                    {
                        await Task.Delay(options.PollIntervalMs, cts.Token).ConfigureAwait(false);
                    }
                    catch (OperationCanceledException)
                    {
                        return;
                    }
                }
            });
        }

        public void Stop()
        {
            Active = false;
            generation += 1;
            if (polling != null) polling.Cancel();
            polling = null;
        }

        public void Dispose()
        {
            if (replayWindow != null) replayWindow.Cancel();
            Stop();
        }

        /// <summary>The stream is open: when polling told things, one last poll and a replay window reconcile the two.</summary>
        public void StreamOpened()
        {
            if (!reconcile) return;
            reconcile = false;
            sub.Delivered.BeginReplayWindow();
            var gen = generation;
            Task.Run(() => PollOnceAsync(gen, CancellationToken.None));
            if (replayWindow != null) replayWindow.Cancel();
            var w = replayWindow = new CancellationTokenSource();
            Task.Delay(options.ReplayWindowMs, w.Token).ContinueWith(t =>
            {
                if (t.IsCanceled) return;
                lock (sub.Sync) sub.Delivered.EndReplayWindow();
            });
        }

        /// <summary>Best effort, at the first failure: the state to diff against if polling starts.</summary>
        public void CaptureBaseline()
        {
            Task.Run(async () =>
            {
                try
                {
                    var snapshot = await FetchAsync(CancellationToken.None).ConfigureAwait(false);
                    lock (sub.Sync) if (!sub.IsClosed && !sub.Delivered.HasBaseline) sub.Delivered.SetBaseline(snapshot);
                }
                catch (Exception)
                {
                    // the service is down too: the first poll will be the baseline
                }
            });
        }

        private async Task PollOnceAsync(int gen, CancellationToken ct)
        {
            try
            {
                var snapshot = await FetchAsync(ct).ConfigureAwait(false);
                lock (sub.Sync)
                {
                    if (gen != generation || sub.IsClosed) return;
                    var delivered = sub.Delivered;
                    if (!delivered.HasBaseline)
                    {
                        delivered.SetBaseline(snapshot);
                        return;
                    }
                    foreach (var update in delivered.Diff(snapshot)) sub.Deliver(update, new UpdateMeta { Id = null, Source = UpdateSource.Poll });
                    delivered.Absorb(snapshot);
                    delivered.SetBaseline(snapshot);
                }
            }
            catch (OperationCanceledException) when (ct.IsCancellationRequested)
            {
                // stopped
            }
            catch (Exception e)
            {
                bool current;
                lock (sub.Sync) current = gen == generation;
                if (current) sub.Report(e);
            }
        }

        private async Task<Snapshot> FetchAsync(CancellationToken ct)
        {
            var snapshot = new Snapshot();
            string cursor = null;
            for (var page = 0; page < 100; page++)
            {
                var list = await client.ListMissionsAsync(new ListMissionsParams { Limit = 100, Cursor = cursor, Status = "all" }, ct).ConfigureAwait(false);
                snapshot.Missions.AddRange(list.Missions);
                foreach (var kv in list.Progress) snapshot.Progress[kv.Key] = kv.Value;
                if (string.IsNullOrEmpty(list.NextCursor)) break;
                cursor = list.NextCursor;
            }
            snapshot.Balances = (await client.GetBalancesAsync(ct).ConfigureAwait(false)).Balances;
            return snapshot;
        }
    }
}
