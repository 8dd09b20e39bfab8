// The game client: a typed method for every /v1 player endpoint and the live
// stream (Subscribe). Requests that are safe to repeat (GETs, and POSTs that
// carry an idempotency key) are retried on a network failure, 502/503/504
// and a short 429, with the same key and body; a 401 asks the token provider
// for a new token once and repeats the request with it.
using System;
using System.Collections.Generic;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Questline
{
    /// <summary>Settings of a QuestlineClient.</summary>
    public sealed class QuestlineClientOptions
    {
        /// <summary>Origin of the service, e.g. https://api.example.com (no /v1).</summary>
        public string BaseUrl { get; set; }

        /// <summary>A fixed access token (use TokenProvider to have it refreshed).</summary>
        public string Token { get; set; }

        /// <summary>Answers a player's access token (the game asks its backend). Called when there is none, when the one held
        /// expires within TokenRefreshAhead, and after a 401.</summary>
        public Func<CancellationToken, Task<string>> TokenProvider { get; set; }

        /// <summary>How long before its <c>exp</c> a token is replaced (default 60 s).</summary>
        public TimeSpan TokenRefreshAhead { get; set; } = TimeSpan.FromSeconds(60);

        /// <summary>HTTP (default: HttpClientTransport).</summary>
        public IQuestlineTransport Transport { get; set; }

        /// <summary>Retries of a request that is safe to repeat (default 2; 0 turns retries off).</summary>
        public int MaxRetries { get; set; } = 2;

        /// <summary>Delays between those retries (default from 250 ms, doubling, capped at 5 s, equal jitter).</summary>
        public BackoffOptions RetryBackoff { get; set; } = new BackoffOptions { BaseMs = 250, MaxMs = 5000 };

        /// <summary>A 429 is retried only when it asks to wait at most this long (default 10 s).</summary>
        public long MaxRetryAfterMs { get; set; } = 10000;

        /// <summary>The clock of event timestamps and token expiry (default: the system clock, UTC).</summary>
        public Func<DateTimeOffset> Clock { get; set; }
    }

    public sealed partial class EventResponse
    {
        /// <summary><c>hit</c> (answered from the idempotency cache), <c>db-hit</c> (a duplicate found after the cache expired) or null (first execution).</summary>
        public string Replay { get; set; }
    }

    public sealed partial class ClaimResponse
    {
        /// <summary><c>hit</c> (answered from the idempotency cache), <c>db-hit</c> (a duplicate found after the cache expired) or null (first execution).</summary>
        public string Replay { get; set; }
    }

    /// <summary>A Questline client for one player.</summary>
    public sealed class QuestlineClient
    {
        private const int RememberedKeys = 1000;
        private readonly Func<DateTimeOffset> clock;
        private readonly object keysLock = new object();
        private readonly Dictionary<string, long> keyTimestamps = new Dictionary<string, long>();
        private readonly Queue<string> keyOrder = new Queue<string>();

        public QuestlineClient(QuestlineClientOptions options)
        {
            if (options == null || string.IsNullOrEmpty(options.BaseUrl)) throw new ArgumentException("QuestlineClient: BaseUrl is required");
            Options = options;
            BaseUrl = options.BaseUrl.TrimEnd('/');
            Transport = options.Transport ?? new HttpClientTransport();
            clock = options.Clock ?? (() => DateTimeOffset.UtcNow);
            Tokens = new TokenCache(options.Token, options.TokenProvider, options.TokenRefreshAhead, clock);
        }

        public string BaseUrl { get; private set; }

        internal QuestlineClientOptions Options { get; private set; }
        internal IQuestlineTransport Transport { get; private set; }
        internal TokenCache Tokens { get; private set; }

        /// <summary>POST /v1/auth/revoke: revokes the token the client holds.</summary>
        public async Task<RevokeResponse> RevokeTokenAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            var r = await CallAsync("POST", "/v1/auth/revoke", null, null, null, true, cancellationToken).ConfigureAwait(false);
            return RevokeResponse.FromJson(r.Json);
        }

        /// <summary>POST /v1/events. <paramref name="userId"/> defaults to the token's subject, <paramref name="timestamp"/> (Unix ms)
        /// to now: the first time for a key, so that a retry with the same key sends the same body and is answered as a replay.
        /// Without a key the SDK makes one, so its own retries are safe.</summary>
        public async Task<EventResponse> SendEventAsync(string name, Dictionary<string, object> payload = null, long? timestamp = null, string userId = null,
            string idempotencyKey = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (userId == null)
            {
                var token = await Tokens.GetAsync(cancellationToken).ConfigureAwait(false);
                userId = TokenCache.Claims(token, "sub") as string ?? "";
            }
            var key = string.IsNullOrEmpty(idempotencyKey) ? Guid.NewGuid().ToString() : idempotencyKey;
            var body = new Dictionary<string, object>
            {
                { "userId", userId },
                { "name", name },
                { "payload", payload ?? new Dictionary<string, object>() },
                { "timestamp", timestamp ?? FirstTimestamp(key) },
            };
            var r = await CallAsync("POST", "/v1/events", null, body, key, true, cancellationToken).ConfigureAwait(false);
            var result = EventResponse.FromJson(r.Json);
            result.Replay = Replay(r.Headers);
            return result;
        }

        /// <summary>GET /v1/missions: one page (follow NextCursor, or use ListAllMissionsAsync).</summary>
        public async Task<MissionList> ListMissionsAsync(ListMissionsParams parameters = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var r = await CallAsync("GET", "/v1/missions", parameters == null ? null : parameters.ToQuery(), null, null, true, cancellationToken).ConfigureAwait(false);
            return MissionList.FromJson(r.Json);
        }

        /// <summary>Every page of GET /v1/missions, merged (NextCursor null).</summary>
        public async Task<MissionList> ListAllMissionsAsync(ListMissionsParams parameters = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var all = new MissionList { Missions = new List<Mission>(), Progress = new Dictionary<string, MissionProgress>() };
            string cursor = null;
            for (var page = 0; page < 1000; page++)
            {
                var p = new ListMissionsParams { Limit = 100, Cursor = cursor };
                if (parameters != null)
                {
                    p.CampaignId = parameters.CampaignId;
                    p.Status = parameters.Status;
                    p.Include = parameters.Include;
                }
                var list = await ListMissionsAsync(p, cancellationToken).ConfigureAwait(false);
                all.Missions.AddRange(list.Missions);
                foreach (var kv in list.Progress) all.Progress[kv.Key] = kv.Value;
                cursor = list.NextCursor;
                if (string.IsNullOrEmpty(cursor)) break;
            }
            return all;
        }

        /// <summary>GET /v1/missions/:id (MissionNotFoundException when there is none).</summary>
        public async Task<MissionDetail> GetMissionAsync(string id, CancellationToken cancellationToken = default(CancellationToken))
        {
            var r = await CallAsync("GET", "/v1/missions/" + Uri.EscapeDataString(id), null, null, null, true, cancellationToken).ConfigureAwait(false);
            return MissionDetail.FromJson(r.Json);
        }

        /// <summary>POST /v1/missions/:id/claim. Without a key the SDK makes one, so its own retries are safe; pass your own to
        /// repeat a claim whose outcome you did not see (a replay answers the first result, <c>Replay</c> set).</summary>
        public async Task<ClaimResponse> ClaimMissionAsync(string id, string idempotencyKey = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var key = string.IsNullOrEmpty(idempotencyKey) ? Guid.NewGuid().ToString() : idempotencyKey;
            var r = await CallAsync("POST", "/v1/missions/" + Uri.EscapeDataString(id) + "/claim", null, null, key, true, cancellationToken).ConfigureAwait(false);
            var result = ClaimResponse.FromJson(r.Json);
            result.Replay = Replay(r.Headers);
            return result;
        }

        /// <summary>GET /v1/balance: every currency of the player.</summary>
        public async Task<BalanceList> GetBalancesAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            var r = await CallAsync("GET", "/v1/balance", null, null, null, true, cancellationToken).ConfigureAwait(false);
            return BalanceList.FromJson(r.Json);
        }

        /// <summary>GET /v1/balance?currency=CODE (BalanceNotFoundException when the player has none).</summary>
        public async Task<SingleBalance> GetBalanceAsync(string currency, CancellationToken cancellationToken = default(CancellationToken))
        {
            var q = new BalanceParams { Currency = currency }.ToQuery();
            var r = await CallAsync("GET", "/v1/balance", q, null, null, true, cancellationToken).ConfigureAwait(false);
            return SingleBalance.FromJson(r.Json);
        }

        /// <summary>GET /v1/campaigns (Include = "expired" lists ended ones too).</summary>
        public async Task<CampaignList> ListCampaignsAsync(ListCampaignsParams parameters = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var r = await CallAsync("GET", "/v1/campaigns", parameters == null ? null : parameters.ToQuery(), null, null, true, cancellationToken).ConfigureAwait(false);
            return CampaignList.FromJson(r.Json);
        }

        /// <summary>GET /v1/campaigns/:id (Include = "missions" adds the missions).</summary>
        public async Task<CampaignDetail> GetCampaignAsync(string id, CampaignParams parameters = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var r = await CallAsync("GET", "/v1/campaigns/" + Uri.EscapeDataString(id), parameters == null ? null : parameters.ToQuery(), null, null, true, cancellationToken).ConfigureAwait(false);
            return CampaignDetail.FromJson(r.Json);
        }

        /// <summary>GET /v1/recommendations (Limit 1..10, default 3). An AI failure is never an error: Fallback is true then.</summary>
        public async Task<Recommendations> RecommendationsAsync(RecommendationsParams parameters = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var r = await CallAsync("GET", "/v1/recommendations", parameters == null ? null : parameters.ToQuery(), null, null, true, cancellationToken).ConfigureAwait(false);
            return Recommendations.FromJson(r.Json);
        }

        /// <summary>GET /v1/sse/updates as a self-healing subscription (see the README). Callbacks run on the
        /// SynchronizationContext current here (Unity's main thread) unless the options name another.</summary>
        public Subscription Subscribe(Action<SdkUpdate, UpdateMeta> onUpdate, SubscribeOptions options = null)
        {
            var s = new Subscription(this, onUpdate, options ?? new SubscribeOptions(), SynchronizationContext.Current);
            s.Start();
            return s;
        }

        internal long NowMs()
        {
            return clock().ToUnixTimeMilliseconds();
        }

        /// <summary>The timestamp of an event sent with this key: the first one (a retry then sends the same body).</summary>
        private long FirstTimestamp(string key)
        {
            lock (keysLock)
            {
                long ts;
                if (keyTimestamps.TryGetValue(key, out ts)) return ts;
                ts = NowMs();
                keyTimestamps[key] = ts;
                keyOrder.Enqueue(key);
                while (keyOrder.Count > RememberedKeys) keyTimestamps.Remove(keyOrder.Dequeue());
                return ts;
            }
        }

        private static string Replay(Dictionary<string, string> headers)
        {
            var v = ErrorFactory.Header(headers, "x-idempotent-replay");
            return v == "hit" || v == "db-hit" ? v : null;
        }

        internal string Url(string path, List<KeyValuePair<string, string>> query)
        {
            var sb = new StringBuilder(BaseUrl).Append(path);
            if (query != null && query.Count > 0)
            {
                var first = true;
                foreach (var kv in query)
                {
                    sb.Append(first ? '?' : '&').Append(Uri.EscapeDataString(kv.Key)).Append('=').Append(Uri.EscapeDataString(kv.Value));
                    first = false;
                }
            }
            return sb.ToString();
        }

        internal sealed class CallResult
        {
            public object Json;
            public Dictionary<string, string> Headers;
        }

        /// <summary>One API call: token, retries of what is safe to repeat, one retry with a new token after a 401, typed errors.</summary>
        internal async Task<CallResult> CallAsync(string method, string path, List<KeyValuePair<string, string>> query, object body, string idempotencyKey, bool auth,
            CancellationToken ct)
        {
            var retryable = method == "GET" || idempotencyKey != null;
            var text = body == null ? null : Json.Write(body);
            var tokenRetried = false;
            var attempt = 0;
            while (true)
            {
                var token = auth ? await Tokens.GetAsync(ct).ConfigureAwait(false) : null;
                var headers = new Dictionary<string, string> { { "Accept", "application/json" } };
                if (token != null) headers["Authorization"] = "Bearer " + token;
                if (idempotencyKey != null) headers["Idempotency-Key"] = idempotencyKey;
                if (text != null) headers["Content-Type"] = "application/json";
                var request = new TransportRequest { Method = method, Url = Url(path, query), Headers = headers, Body = text };
                QuestlineException error = null;
                TransportResponse res = null;
                try
                {
                    res = await Transport.SendAsync(request, ct).ConfigureAwait(false);
                }
                catch (OperationCanceledException) when (ct.IsCancellationRequested)
                {
                    throw;
                }
                catch (Exception e)
                {
                    error = new NetworkException("Network error on " + method + " " + path + ": " + e.Message, e);
                }
                if (res != null)
                {
                    if (res.Status >= 200 && res.Status < 300)
                    {
                        return new CallResult { Json = string.IsNullOrEmpty(res.Body) ? null : Questline.Json.Parse(res.Body), Headers = res.Headers };
                    }
                    // A 401 means nothing was done: once, with a token other than the refused one.
                    if (res.Status == 401 && auth && Tokens.CanRefresh && !tokenRetried)
                    {
                        tokenRetried = true;
                        string fresh = null;
                        try
                        {
                            fresh = await Tokens.RefreshAsync(token, ct).ConfigureAwait(false);
                        }
                        catch (Exception) when (!ct.IsCancellationRequested)
                        {
                            // no new token: the 401 stands
                        }
                        if (fresh != null && fresh != token) continue;
                    }
                    error = ErrorFactory.FromResponse(res.Status, res.Headers, res.Body);
                }
                var delay = RetryDelay(error, attempt);
                if (!retryable || attempt >= Options.MaxRetries || delay < 0) throw error;
                attempt++;
                await Task.Delay(TimeSpan.FromMilliseconds(delay), ct).ConfigureAwait(false);
            }
        }

        /// <summary>The wait before repeating a safe request after <paramref name="error"/>; -1 when repeating would not help.</summary>
        private long RetryDelay(QuestlineException error, int attempt)
        {
            var limited = error as RateLimitedException;
            if (limited != null) return limited.RetryAfterMs <= Options.MaxRetryAfterMs ? limited.RetryAfterMs : -1;
            if (error is NetworkException || error.Status == 502 || error.Status == 503 || error.Status == 504)
                return Backoff.Delay(attempt, Options.RetryBackoff);
            return -1;
        }
    }
}
