// Test support: the live service the Vitest runner started (sdk/csharp/csharp-sdk.test.ts passes its URL
// and app in the environment), a transport that records requests and injects faults, and waits on conditions.
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;
using Questline;
using Questline.Backend;

namespace Questline.Tests
{
    internal static class Live
    {
        public static string Env(string name)
        {
            var v = Environment.GetEnvironmentVariable(name);
            if (string.IsNullOrEmpty(v)) Assert.Fail(name + " is not set: run these tests through `npx vitest run sdk/csharp/csharp-sdk.test.ts`");
            return v;
        }

        public static string Url { get { return Env("QUESTLINE_URL"); } }
        public static string AppId { get { return Env("QUESTLINE_APP_ID"); } }
        public static string AppSecret { get { return Env("QUESTLINE_APP_SECRET"); } }
        public static string WebhookSecret { get { return Env("QUESTLINE_WEBHOOK_SECRET"); } }

        public static string NewUserId(string prefix)
        {
            return prefix + "-" + Guid.NewGuid().ToString("N").Substring(0, 12);
        }

        public static QuestlineBackend Backend(IQuestlineTransport transport = null)
        {
            return new QuestlineBackend(Url, transport);
        }

        /// <summary>A client whose token provider asks the "game backend" (here the SDK's backend part); counts the asks.</summary>
        public static QuestlineClient Client(string userId, RecordingTransport transport = null, Counter asks = null, Func<DateTimeOffset> clock = null)
        {
            var backend = Backend();
            return new QuestlineClient(new QuestlineClientOptions
            {
                BaseUrl = Url,
                Transport = transport,
                Clock = clock,
                RetryBackoff = new BackoffOptions { BaseMs = 20, MaxMs = 100 },
                TokenProvider = async ct =>
                {
                    if (asks != null) asks.Increment();
                    return (await backend.IssueTokenAsync(AppId, AppSecret, userId, null, ct).ConfigureAwait(false)).AccessToken;
                },
            });
        }

        public static T Await<T>(Task<T> task)
        {
            return task.GetAwaiter().GetResult();
        }

        public static void Await(Task task)
        {
            task.GetAwaiter().GetResult();
        }
    }

    internal sealed class Counter
    {
        private int value;
        public int Value { get { return Volatile.Read(ref value); } }
        public void Increment() { Interlocked.Increment(ref value); }
    }

    /// <summary>Waits for a condition on shared state, woken by Changed(); the bound only stops a hang.</summary>
    internal class Waitable
    {
        protected readonly object Gate = new object();

        protected void Changed()
        {
            lock (Gate) Monitor.PulseAll(Gate);
        }

        public void WaitFor(Func<bool> condition, string label, int boundMs = 30000)
        {
            var end = DateTime.UtcNow.AddMilliseconds(boundMs);
            lock (Gate)
            {
                while (!condition())
                {
                    var left = end - DateTime.UtcNow;
                    if (left <= TimeSpan.Zero) Assert.Fail("Gave up waiting for " + label + " (" + Describe() + ")");
                    Monitor.Wait(Gate, left < TimeSpan.FromMilliseconds(200) ? left : TimeSpan.FromMilliseconds(200));
                }
            }
        }

        protected virtual string Describe()
        {
            return "";
        }
    }

    /// <summary>Updates, states and errors of a subscription, with the thread each callback ran on.</summary>
    internal sealed class Collector : Waitable
    {
        public readonly List<SdkUpdate> Updates = new List<SdkUpdate>();
        public readonly List<UpdateMeta> Metas = new List<UpdateMeta>();
        public readonly List<SubscriptionState> States = new List<SubscriptionState>();
        public readonly List<Exception> Errors = new List<Exception>();
        public readonly List<int> Threads = new List<int>();

        public SubscribeOptions Options(SubscribeOptions o)
        {
            o.OnStateChange = (next, prev) => { lock (Gate) { States.Add(next); Threads.Add(Thread.CurrentThread.ManagedThreadId); } Changed(); };
            o.OnError = e => { lock (Gate) { Errors.Add(e); Threads.Add(Thread.CurrentThread.ManagedThreadId); } Changed(); };
            return o;
        }

        public void OnUpdate(SdkUpdate u, UpdateMeta m)
        {
            lock (Gate)
            {
                Updates.Add(u);
                Metas.Add(m);
                Threads.Add(Thread.CurrentThread.ManagedThreadId);
            }
            Changed();
        }

        public int Count(string type, string missionOrCurrency = null)
        {
            lock (Gate)
            {
                var n = 0;
                foreach (var u in Updates)
                    if (u.Type == type && (missionOrCurrency == null || u.Data.MissionId == missionOrCurrency || u.Data.Currency == missionOrCurrency)) n++;
                return n;
            }
        }

        public bool HasState(SubscriptionState s)
        {
            lock (Gate) return States.Contains(s);
        }

        public int StateCount(SubscriptionState s)
        {
            lock (Gate) return States.FindAll(x => x == s).Count;
        }

        protected override string Describe()
        {
            lock (Gate)
            {
                var types = Updates.ConvertAll(u => u.Type);
                return "updates: [" + string.Join(", ", types.ToArray()) + "], states: [" + string.Join(", ", States.ConvertAll(s => s.ToString()).ToArray()) +
                    "], errors (" + Errors.Count + ", the last 3): [" +
                    string.Join(" | ", Errors.GetRange(Math.Max(0, Errors.Count - 3), Math.Min(3, Errors.Count)).ConvertAll(e => e.GetType().Name + ": " + e.Message).ToArray()) + "]";
            }
        }
    }

    /// <summary>The real HTTP transport, recorded, with faults: responses dropped after the server answered, streams refused,
    /// cut, or held before they reach the server.</summary>
    internal sealed class RecordingTransport : Waitable, IQuestlineTransport
    {
        private readonly HttpClientTransport inner = new HttpClientTransport();
        private readonly List<TransportRequest> requests = new List<TransportRequest>();
        private readonly List<CutStream> open = new List<CutStream>();
        private TaskCompletionSource<bool> streamGate;

        /// <summary>Requests for which the server's answer is thrown away (an IOException instead), once each time it answers true.</summary>
        public Func<TransportRequest, bool> DropResponse;

        /// <summary>When set, stream requests fail this way without reaching the server.</summary>
        public Func<Exception> RefuseStream;

        /// <summary>When set (not null), stream requests are answered with this status and body without reaching the server.</summary>
        public int? StreamStatus;

        public int Completed { get; private set; }

        public List<TransportRequest> Requests
        {
            get { lock (Gate) return new List<TransportRequest>(requests); }
        }

        public int CountRequests(Func<TransportRequest, bool> which)
        {
            lock (Gate) return requests.FindAll(r => which(r)).Count;
        }

        public async Task<TransportResponse> SendAsync(TransportRequest request, CancellationToken cancellationToken)
        {
            lock (Gate) requests.Add(request);
            Changed();
            var res = await inner.SendAsync(request, cancellationToken).ConfigureAwait(false);
            lock (Gate) Completed++;
            Changed();
            if (DropResponse != null && DropResponse(request)) throw new IOException("connection reset (injected after the server answered)");
            return res;
        }

        /// <summary>Holds new stream connections until ReleaseStreams().</summary>
        public void HoldStreams()
        {
            lock (Gate) streamGate = new TaskCompletionSource<bool>();
        }

        public void ReleaseStreams()
        {
            TaskCompletionSource<bool> g;
            lock (Gate)
            {
                g = streamGate;
                streamGate = null;
            }
            if (g != null) g.TrySetResult(true);
        }

        /// <summary>Cuts every open stream (its next read fails as a reset connection would).</summary>
        public void CutStreams()
        {
            List<CutStream> streams;
            lock (Gate) streams = new List<CutStream>(open);
            foreach (var s in streams) s.Cut();
        }

        public int Held { get; private set; }

        public async Task<TransportStream> OpenStreamAsync(TransportRequest request, CancellationToken cancellationToken)
        {
            TaskCompletionSource<bool> g;
            lock (Gate)
            {
                requests.Add(request);
                g = streamGate;
                if (g != null) Held++;
            }
            Changed();
            if (g != null)
            {
                using (cancellationToken.Register(() => g.TrySetCanceled())) await g.Task.ConfigureAwait(false);
            }
            if (RefuseStream != null) throw RefuseStream();
            if (StreamStatus.HasValue) return new FakeStream(StreamStatus.Value);
            var stream = new CutStream(await inner.OpenStreamAsync(request, cancellationToken).ConfigureAwait(false));
            lock (Gate) open.Add(stream);
            Changed();
            return stream;
        }

        public int OpenStreams
        {
            get { lock (Gate) return open.FindAll(s => !s.IsCut).Count; }
        }

        private sealed class FakeStream : TransportStream
        {
            public FakeStream(int status)
            {
                Status = status;
                Headers = new Dictionary<string, string> { { "content-type", "text/html" } };
                Body = status == 200 ? null : "<html>streaming is not available behind this proxy</html>";
            }

            public override Task<string> ReadAsync(CancellationToken cancellationToken)
            {
                return Task.FromResult<string>(null);
            }

            public override void Dispose() { }
        }

        private sealed class CutStream : TransportStream
        {
            private readonly TransportStream inner;
            private readonly TaskCompletionSource<string> cut = new TaskCompletionSource<string>();

            public CutStream(TransportStream inner)
            {
                this.inner = inner;
                Status = inner.Status;
                Headers = inner.Headers;
                Body = inner.Body;
            }

            public bool IsCut { get { return cut.Task.IsCompleted; } }

            public void Cut()
            {
                cut.TrySetException(new IOException("connection reset (injected)"));
                inner.Dispose();
            }

            public override async Task<string> ReadAsync(CancellationToken cancellationToken)
            {
                if (IsCut) return await cut.Task.ConfigureAwait(false);
                var read = inner.ReadAsync(cancellationToken);
                var first = await Task.WhenAny(read, cut.Task).ConfigureAwait(false);
                if (first == cut.Task)
                {
                    _ = read.ContinueWith(t => t.Exception, TaskContinuationOptions.OnlyOnFaulted);
                }
                return await first.ConfigureAwait(false);
            }

            public override void Dispose()
            {
                inner.Dispose();
            }
        }
    }

    /// <summary>A SynchronizationContext with one thread of its own, like a game's main loop.</summary>
    internal sealed class PumpContext : SynchronizationContext, IDisposable
    {
        private readonly Queue<KeyValuePair<SendOrPostCallback, object>> queue = new Queue<KeyValuePair<SendOrPostCallback, object>>();
        private readonly Thread thread;
        private bool done;

        public PumpContext()
        {
            thread = new Thread(Loop) { IsBackground = true, Name = "main-loop" };
            thread.Start();
        }

        public int ThreadId { get { return thread.ManagedThreadId; } }

        public override void Post(SendOrPostCallback d, object state)
        {
            lock (queue)
            {
                queue.Enqueue(new KeyValuePair<SendOrPostCallback, object>(d, state));
                Monitor.Pulse(queue);
            }
        }

        private void Loop()
        {
            SetSynchronizationContext(this);
            while (true)
            {
                KeyValuePair<SendOrPostCallback, object> item;
                lock (queue)
                {
                    while (queue.Count == 0 && !done) Monitor.Wait(queue);
                    if (done) return;
                    item = queue.Dequeue();
                }
                item.Key(item.Value);
            }
        }

        public void Dispose()
        {
            lock (queue)
            {
                done = true;
                Monitor.Pulse(queue);
            }
        }
    }
}
