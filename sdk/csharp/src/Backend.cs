// The game BACKEND part (never ship it in a game client: it holds the app
// secret and the webhook secrets): player tokens, signed inbound webhook
// deliveries, and verification of the notifications Questline sends (outbound
// webhooks). The same scheme as the TypeScript SDK's backend.ts: `v1=` and
// the hex HMAC-SHA256 of `${timestamp}.${body}` (UTF-8), timestamps in Unix ms.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Questline.Backend
{
    /// <summary>Thrown by Webhooks.Verify: the notification is not from Questline (or not for this secret), or too old.</summary>
    public sealed class WebhookVerificationException : Exception
    {
        public WebhookVerificationException(string message) : base(message) { }
    }

    public static class Webhooks
    {
        /// <summary>How far a notification's timestamp may be from this clock.</summary>
        public static readonly TimeSpan Tolerance = TimeSpan.FromMinutes(5);

        /// <summary>The X-Webhook-Signature of a delivery (and the Questline-Webhook-Signature of a notification):
        /// <c>v1=</c> + hex HMAC-SHA256 of <c>{timestamp}.{body}</c>. Sign exactly the bytes you send.</summary>
        public static string Sign(string secret, string body, long timestamp)
        {
            return Sign(secret, Encoding.UTF8.GetBytes(body), timestamp.ToString(CultureInfo.InvariantCulture));
        }

        public static string Sign(string secret, byte[] body, string timestamp)
        {
            var prefix = Encoding.UTF8.GetBytes(timestamp + ".");
            var message = new byte[prefix.Length + body.Length];
            Buffer.BlockCopy(prefix, 0, message, 0, prefix.Length);
            Buffer.BlockCopy(body, 0, message, prefix.Length, body.Length);
            using (var hmac = new HMACSHA256(Encoding.UTF8.GetBytes(secret)))
            {
                var mac = hmac.ComputeHash(message);
                var sb = new StringBuilder("v1=", 3 + mac.Length * 2);
                foreach (var b in mac) sb.Append(b.ToString("x2", CultureInfo.InvariantCulture));
                return sb.ToString();
            }
        }

        /// <summary>The headers of POST /v1/webhook/incoming for <paramref name="body"/> (Content-Type included).
        /// <paramref name="webhookId"/> is the delivery's idempotency key: keep it for its retries.</summary>
        public static Dictionary<string, string> Headers(string appId, string secret, string body, string webhookId, long? timestamp = null)
        {
            var ts = timestamp ?? DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
            return new Dictionary<string, string>
            {
                { "Content-Type", "application/json" },
                { "X-App-Id", appId },
                { "X-Webhook-Id", webhookId },
                { "X-Webhook-Timestamp", ts.ToString(CultureInfo.InvariantCulture) },
                { "X-Webhook-Signature", Sign(secret, body, ts) },
            };
        }

        /// <summary>Verifies a notification Questline POSTed to your endpoint and answers it parsed. <paramref name="headers"/>: names
        /// in any case; <paramref name="rawBody"/>: the body exactly as received. Deduplicate by Id: a retry carries the same id.</summary>
        public static Notification Verify(string secret, IDictionary<string, string> headers, string rawBody, DateTimeOffset? now = null)
        {
            return Verify(secret, headers, Encoding.UTF8.GetBytes(rawBody ?? ""), now);
        }

        public static Notification Verify(string secret, IDictionary<string, string> headers, byte[] rawBody, DateTimeOffset? now = null)
        {
            var id = Header(headers, "Questline-Webhook-Id");
            var timestamp = (Header(headers, "Questline-Webhook-Timestamp") ?? "").Trim();
            var signature = (Header(headers, "Questline-Webhook-Signature") ?? "").Trim().ToLowerInvariant();
            if (string.IsNullOrEmpty(id)) throw new WebhookVerificationException("Questline-Webhook-Id is missing");
            long ts;
            if (timestamp.Length == 0 || timestamp.Length > 16 || !AllDigits(timestamp, 0) || !long.TryParse(timestamp, NumberStyles.None, CultureInfo.InvariantCulture, out ts))
                throw new WebhookVerificationException("Questline-Webhook-Timestamp is missing or not Unix milliseconds");
            var nowMs = (now ?? DateTimeOffset.UtcNow).ToUnixTimeMilliseconds();
            if (Math.Abs(nowMs - ts) > (long)Tolerance.TotalMilliseconds)
                throw new WebhookVerificationException("Questline-Webhook-Timestamp is more than 5 minutes away from this clock");
            if (signature.Length != 67 || !signature.StartsWith("v1=", StringComparison.Ordinal) || !IsHex(signature, 3))
                throw new WebhookVerificationException("Questline-Webhook-Signature is missing or not v1=<64 hex digits>");
            if (!SameHex(Sign(secret, rawBody, timestamp), signature))
                throw new WebhookVerificationException("The signature does not match this secret and body");
            object parsed;
            try
            {
                parsed = Json.Parse(new UTF8Encoding(false, true).GetString(rawBody));
            }
            catch (Exception)
            {
                throw new WebhookVerificationException("The body is not JSON");
            }
            var body = parsed as Dictionary<string, object>;
            if (body == null || !(Json.Get(body, "id") is string) || (string)Json.Get(body, "id") != id)
                throw new WebhookVerificationException("The body's id is not the Questline-Webhook-Id");
            return Notification.FromJson(body);
        }

        private static string Header(IDictionary<string, string> headers, string name)
        {
            if (headers == null) return null;
            foreach (var kv in headers) if (string.Equals(kv.Key, name, StringComparison.OrdinalIgnoreCase)) return kv.Value;
            return null;
        }

        private static bool AllDigits(string s, int from)
        {
            for (var i = from; i < s.Length; i++) if (s[i] < '0' || s[i] > '9') return false;
            return true;
        }

        private static bool IsHex(string s, int from)
        {
            for (var i = from; i < s.Length; i++)
            {
                var c = s[i];
                if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
            }
            return true;
        }

        /// <summary>Constant-time comparison of two strings of the same alphabet.</summary>
        private static bool SameHex(string a, string b)
        {
            if (a.Length != b.Length) return false;
            var diff = 0;
            for (var i = 0; i < a.Length; i++) diff |= a[i] ^ b[i];
            return diff == 0;
        }
    }

    /// <summary>Calls from the game backend to the service.</summary>
    public sealed class QuestlineBackend
    {
        private readonly string baseUrl;
        private readonly IQuestlineTransport transport;

        public QuestlineBackend(string baseUrl, IQuestlineTransport transport = null)
        {
            if (string.IsNullOrEmpty(baseUrl)) throw new ArgumentException("QuestlineBackend: baseUrl is required");
            this.baseUrl = baseUrl.TrimEnd('/');
            this.transport = transport ?? new HttpClientTransport();
        }

        /// <summary>POST /v1/auth/token: a player's access token (attributes, when given, are merged into the player's first;
        /// a null value deletes a key). Throws the typed exception of a refusal (InvalidCredentialsException, ...).</summary>
        public async Task<TokenResponse> IssueTokenAsync(string appId, string appSecret, string userId, Dictionary<string, object> attributes = null,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            var request = new TokenRequest { AppId = appId, AppSecret = appSecret, UserId = userId, Attributes = attributes };
            var res = await transport.SendAsync(new TransportRequest
            {
                Method = "POST",
                Url = baseUrl + "/v1/auth/token",
                Headers = new Dictionary<string, string> { { "Content-Type", "application/json" }, { "Accept", "application/json" } },
                Body = Json.Write(request.ToJson()),
            }, cancellationToken).ConfigureAwait(false);
            if (res.Status != 200) throw ErrorFactory.FromResponse(res.Status, res.Headers, res.Body);
            return TokenResponse.FromJson(Json.Parse(res.Body));
        }

        /// <summary>POST /v1/webhook/incoming: a signed delivery of events (and user attributes) from the backend.
        /// <paramref name="webhookId"/> is its idempotency key (keep it for a retry: the retry is answered as a replay).</summary>
        public async Task<WebhookResponse> SendWebhookAsync(string appId, string webhookSecret, WebhookDelivery delivery, string webhookId,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            var body = Json.Write(delivery.ToJson());
            var res = await transport.SendAsync(new TransportRequest
            {
                Method = "POST",
                Url = baseUrl + "/v1/webhook/incoming",
                Headers = Webhooks.Headers(appId, webhookSecret, body, webhookId),
                Body = body,
            }, cancellationToken).ConfigureAwait(false);
            if (res.Status < 200 || res.Status >= 300) throw ErrorFactory.FromResponse(res.Status, res.Headers, res.Body);
            return WebhookResponse.FromJson(Json.Parse(res.Body));
        }

        /// <summary>POST /v1/balance/spend with the app secret (HTTP Basic): takes <c>request.Amount</c> of <c>request.Currency</c>
        /// from the player's balance, once per <paramref name="idempotencyKey"/> (reuse it on a retry: the first answer comes back).
        /// Throws InsufficientBalanceException (409), UserNotFoundException (404), ValidationException (400), ...
        /// Never call it from a game client: it needs a secret.</summary>
        public Task<SpendResponse> SpendAsync(string appId, string appSecret, SpendRequest request, string idempotencyKey,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            if (request == null) throw new ArgumentNullException("request");
            if (string.IsNullOrEmpty(idempotencyKey)) throw new ArgumentException("SpendAsync: idempotencyKey is required");
            var body = Json.Write(request.ToJson());
            var credentials = Convert.ToBase64String(Encoding.UTF8.GetBytes(appId + ":" + appSecret));
            var headers = new Dictionary<string, string>
            {
                { "Content-Type", "application/json" },
                { "Accept", "application/json" },
                { "Authorization", "Basic " + credentials },
                { "Idempotency-Key", idempotencyKey },
            };
            return SendSpendAsync(headers, body, cancellationToken);
        }

        /// <summary>POST /v1/balance/spend signed with the webhook secret, as an inbound delivery is (the key also goes inside
        /// the signed body, so a captured request cannot be replayed under another key). Same answers as SpendAsync.</summary>
        public Task<SpendResponse> SpendSignedAsync(string appId, string webhookSecret, SpendRequest request, string idempotencyKey,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            if (request == null) throw new ArgumentNullException("request");
            if (string.IsNullOrEmpty(idempotencyKey)) throw new ArgumentException("SpendSignedAsync: idempotencyKey is required");
            var json = request.ToJson();
            json["idempotencyKey"] = idempotencyKey;
            var body = Json.Write(json);
            var ts = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
            var headers = new Dictionary<string, string>
            {
                { "Content-Type", "application/json" },
                { "Accept", "application/json" },
                { "Idempotency-Key", idempotencyKey },
                { "X-App-Id", appId },
                { "X-Webhook-Timestamp", ts.ToString(CultureInfo.InvariantCulture) },
                { "X-Webhook-Signature", Webhooks.Sign(webhookSecret, body, ts) },
            };
            return SendSpendAsync(headers, body, cancellationToken);
        }

        private async Task<SpendResponse> SendSpendAsync(Dictionary<string, string> headers, string body, CancellationToken cancellationToken)
        {
            var res = await transport.SendAsync(new TransportRequest
            {
                Method = "POST",
                Url = baseUrl + "/v1/balance/spend",
                Headers = headers,
                Body = body,
            }, cancellationToken).ConfigureAwait(false);
            if (res.Status != 200) throw ErrorFactory.FromResponse(res.Status, res.Headers, res.Body);
            return SpendResponse.FromJson(Json.Parse(res.Body));
        }
    }
}
