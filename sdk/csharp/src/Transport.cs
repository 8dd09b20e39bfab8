// HTTP for the SDK: one small interface (requests with a text body, and a
// stream read as text chunks) so that a game can plug its own (the Unity one
// below for WebGL, a test's fault injector), and the default on HttpClient.
using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Http;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Questline
{
    /// <summary>A request: method, absolute URL, headers, JSON body (or null).</summary>
    public sealed class TransportRequest
    {
        public string Method { get; set; }
        public string Url { get; set; }
        public Dictionary<string, string> Headers { get; set; }
        public string Body { get; set; }
    }

    /// <summary>A whole response; header names in any case (look them up case-insensitively).</summary>
    public sealed class TransportResponse
    {
        public int Status { get; set; }
        public Dictionary<string, string> Headers { get; set; }
        public string Body { get; set; }
    }

    /// <summary>An open streaming response. When Status is not 200, Body holds the error body and there is nothing to read.</summary>
    public abstract class TransportStream : IDisposable
    {
        public int Status { get; protected set; }
        public Dictionary<string, string> Headers { get; protected set; }
        public string Body { get; protected set; }

        /// <summary>The next decoded text chunk, or null at the end of the stream. Throws when the connection fails.</summary>
        public abstract Task<string> ReadAsync(CancellationToken cancellationToken);

        public abstract void Dispose();
    }

    /// <summary>What the SDK sends HTTP through.</summary>
    public interface IQuestlineTransport
    {
        /// <summary>Sends a request and reads the whole response. Throws (any exception) when no response arrives.</summary>
        Task<TransportResponse> SendAsync(TransportRequest request, CancellationToken cancellationToken);

        /// <summary>Sends a GET and answers as soon as the headers are in; throws StreamUnsupportedException when this transport cannot stream.</summary>
        Task<TransportStream> OpenStreamAsync(TransportRequest request, CancellationToken cancellationToken);
    }

    /// <summary>The default transport: System.Net.Http.HttpClient (.NET, Mono, Unity on every platform but WebGL).</summary>
    public sealed class HttpClientTransport : IQuestlineTransport
    {
        private readonly HttpClient http;

        public HttpClientTransport() : this(new HttpClient { Timeout = System.Threading.Timeout.InfiniteTimeSpan }) { }

        /// <summary>With your own HttpClient (its Timeout must allow a stream that stays open: the SDK bounds requests itself).</summary>
        public HttpClientTransport(HttpClient client)
        {
            http = client;
        }

        /// <summary>Bound of one request (not of a stream); default 30 s.</summary>
        public TimeSpan RequestTimeout { get; set; } = TimeSpan.FromSeconds(30);

        public async Task<TransportResponse> SendAsync(TransportRequest request, CancellationToken cancellationToken)
        {
            using (var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
            {
                timeout.CancelAfter(RequestTimeout);
                using (var message = Build(request))
                using (var response = await http.SendAsync(message, HttpCompletionOption.ResponseContentRead, timeout.Token).ConfigureAwait(false))
                {
                    var body = response.Content == null ? "" : await response.Content.ReadAsStringAsync().ConfigureAwait(false);
                    return new TransportResponse { Status = (int)response.StatusCode, Headers = HeadersOf(response), Body = body };
                }
            }
        }

        public async Task<TransportStream> OpenStreamAsync(TransportRequest request, CancellationToken cancellationToken)
        {
            var message = Build(request);
            HttpResponseMessage response;
            using (var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
            {
                timeout.CancelAfter(RequestTimeout);
                try
                {
                    response = await http.SendAsync(message, HttpCompletionOption.ResponseHeadersRead, timeout.Token).ConfigureAwait(false);
                }
                catch
                {
                    message.Dispose();
                    throw;
                }
            }
            var status = (int)response.StatusCode;
            if (status != 200)
            {
                string body;
                try
                {
                    body = response.Content == null ? "" : await response.Content.ReadAsStringAsync().ConfigureAwait(false);
                }
                finally
                {
                    response.Dispose();
                    message.Dispose();
                }
                return new ClientStream(status, HeadersOf(response), body, null, null, null);
            }
            var stream = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
            return new ClientStream(status, HeadersOf(response), null, message, response, new StreamReader(stream, new UTF8Encoding(false)));
        }

        private static HttpRequestMessage Build(TransportRequest request)
        {
            var message = new HttpRequestMessage(new HttpMethod(request.Method ?? "GET"), request.Url);
            if (request.Body != null) message.Content = new StringContent(request.Body, new UTF8Encoding(false), "application/json");
            if (request.Headers != null)
            {
                foreach (var kv in request.Headers)
                {
                    if (string.Equals(kv.Key, "Content-Type", StringComparison.OrdinalIgnoreCase)) continue; // set by the content
                    message.Headers.TryAddWithoutValidation(kv.Key, kv.Value);
                }
            }
            return message;
        }

        private static Dictionary<string, string> HeadersOf(HttpResponseMessage response)
        {
            var headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
            foreach (var h in response.Headers) headers[h.Key] = string.Join(", ", h.Value);
            if (response.Content != null) foreach (var h in response.Content.Headers) headers[h.Key] = string.Join(", ", h.Value);
            return headers;
        }

        private sealed class ClientStream : TransportStream
        {
            private readonly HttpRequestMessage message;
            private readonly HttpResponseMessage response;
            private readonly StreamReader reader;
            private readonly char[] buffer = new char[4096];
            private int disposed;

            public ClientStream(int status, Dictionary<string, string> headers, string body, HttpRequestMessage message, HttpResponseMessage response, StreamReader reader)
            {
                Status = status;
                Headers = headers;
                Body = body;
                this.message = message;
                this.response = response;
                this.reader = reader;
            }

            public override async Task<string> ReadAsync(CancellationToken cancellationToken)
            {
                if (reader == null) return null;
                // A pending read on a socket does not always observe a token: cancelling disposes the response, which ends it.
                using (cancellationToken.Register(Dispose))
                {
                    int n;
                    try
                    {
                        n = await reader.ReadAsync(buffer, 0, buffer.Length).ConfigureAwait(false);
                    }
                    catch (Exception) when (cancellationToken.IsCancellationRequested)
                    {
                        throw new OperationCanceledException(cancellationToken);
                    }
                    cancellationToken.ThrowIfCancellationRequested();
                    return n == 0 ? null : new string(buffer, 0, n);
                }
            }

            public override void Dispose()
            {
                if (Interlocked.Exchange(ref disposed, 1) == 1) return;
                if (reader != null) reader.Dispose();
                if (response != null) response.Dispose();
                if (message != null) message.Dispose();
            }
        }
    }
}
