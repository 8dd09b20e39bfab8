// The SDK's exceptions: QuestlineException and its generated subclasses (one
// per error code of the contract, Generated/Errors.g.cs), NetworkException
// (no response) and RateLimitedException (429, with the wait).
using System;
using System.Collections.Generic;

namespace Questline
{
    /// <summary>Base of every exception the SDK throws for an HTTP or network failure.</summary>
    public class QuestlineException : Exception
    {
        public QuestlineException(int status, string code, string message, string requestId, Exception inner = null)
            : base(string.IsNullOrEmpty(message) ? code : message, inner)
        {
            Status = status;
            Code = code;
            ErrorCode = ErrorCodes.Parse(code);
            RequestId = requestId;
        }

        /// <summary>HTTP status; 0 for a network failure (no response).</summary>
        public int Status { get; private set; }

        /// <summary>The <c>error</c> field of the body (e.g. <c>claim_not_ready</c>), or <c>network_error</c> / <c>http_&lt;status&gt;</c>.</summary>
        public string Code { get; private set; }

        /// <summary>The code as the enum (Unknown for network failures and codes newer than this SDK).</summary>
        public ErrorCode ErrorCode { get; private set; }

        /// <summary>X-Request-Id of the response, to quote when reporting a problem.</summary>
        public string RequestId { get; private set; }
    }

    /// <summary>No response at all (connection refused or cut, DNS, timeout): <c>Status</c> 0.</summary>
    public class NetworkException : QuestlineException
    {
        public NetworkException(string message, Exception inner = null) : base(0, "network_error", message, null, inner) { }
    }

    /// <summary>429 <c>rate_limited</c> (or <c>too_many_streams</c> on the stream); wait <c>RetryAfterMs</c> before retrying.</summary>
    public class RateLimitedException : QuestlineException
    {
        public RateLimitedException(int status, string code, string message, string requestId, long retryAfterMs)
            : base(status, code, message, requestId)
        {
            RetryAfterMs = retryAfterMs;
        }

        public long RetryAfterMs { get; private set; }
    }

    /// <summary>The stream cannot be read on this platform (e.g. UnityWebRequest on WebGL): the subscription polls instead.</summary>
    public class StreamUnsupportedException : Exception
    {
        public StreamUnsupportedException(string message) : base(message) { }
    }

    internal static class ErrorFactory
    {
        /// <summary>The typed exception of a non-2xx answer (body <c>{ error, message?, retryAfterMs? }</c>).</summary>
        public static QuestlineException FromResponse(int status, IDictionary<string, string> headers, string body)
        {
            Dictionary<string, object> parsed = null;
            try
            {
                parsed = Json.Parse(body ?? "") as Dictionary<string, object>;
            }
            catch (FormatException)
            {
                // not JSON (a proxy's page, an empty body): the status decides
            }
            var code = parsed != null ? Json.Get(parsed, "error") as string : null;
            if (code == null) code = "http_" + status;
            var message = parsed != null ? Json.Get(parsed, "message") as string : null;
            var requestId = Header(headers, "x-request-id");
            if (code == "rate_limited" || code == "too_many_streams" || status == 429)
            {
                long retryAfterMs = 1000;
                var fromBody = parsed != null ? Json.Get(parsed, "retryAfterMs") : null;
                double seconds;
                if (fromBody is long || fromBody is double) retryAfterMs = (long)Json.ToDouble(fromBody);
                else if (double.TryParse(Header(headers, "retry-after"), System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out seconds) && seconds > 0)
                    retryAfterMs = (long)(seconds * 1000);
                return new RateLimitedException(status, code, message, requestId, retryAfterMs);
            }
            return ErrorCodes.Create(status, code, message, requestId);
        }

        internal static string Header(IDictionary<string, string> headers, string name)
        {
            if (headers == null) return null;
            string value;
            if (headers.TryGetValue(name, out value)) return value;
            foreach (var kv in headers) if (string.Equals(kv.Key, name, StringComparison.OrdinalIgnoreCase)) return kv.Value;
            return null;
        }
    }
}
