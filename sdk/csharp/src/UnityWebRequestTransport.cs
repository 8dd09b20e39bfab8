// A transport on UnityWebRequest, for Unity's WebGL player (where the browser
// does the HTTP and System.Net.Http is not available). Compiled only inside
// Unity (UNITY_5_3_OR_NEWER); NOT exercised by the repository's tests (they
// run on Mono without Unity): see sdk/csharp/README.md. Requests only: the
// browser's fetch does not hand UnityWebRequest a body while it streams, so
// OpenStreamAsync throws StreamUnsupportedException and a subscription polls.
#if UNITY_5_3_OR_NEWER
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using UnityEngine.Networking;

namespace Questline.Unity
{
    /// <summary>UnityWebRequest transport: create it on the main thread (requests are started there).</summary>
    public sealed class UnityWebRequestTransport : IQuestlineTransport
    {
        private readonly SynchronizationContext main;

        public UnityWebRequestTransport()
        {
            main = SynchronizationContext.Current;
            if (main == null) throw new InvalidOperationException("Create the UnityWebRequestTransport on Unity's main thread");
        }

        /// <summary>Bound of one request, seconds (UnityWebRequest.timeout; default 30).</summary>
        public int TimeoutSeconds { get; set; } = 30;

        public Task<TransportResponse> SendAsync(TransportRequest request, CancellationToken cancellationToken)
        {
            var done = new TaskCompletionSource<TransportResponse>();
            // UnityWebRequest may only be used on the main thread.
            main.Post(_ => Start(request, cancellationToken, done), null);
            return done.Task;
        }

        public Task<TransportStream> OpenStreamAsync(TransportRequest request, CancellationToken cancellationToken)
        {
            var failed = new TaskCompletionSource<TransportStream>();
            failed.SetException(new StreamUnsupportedException("UnityWebRequestTransport does not stream: the subscription polls"));
            return failed.Task;
        }

        private void Start(TransportRequest request, CancellationToken ct, TaskCompletionSource<TransportResponse> done)
        {
            if (ct.IsCancellationRequested)
            {
                done.TrySetCanceled();
                return;
            }
            var www = new UnityWebRequest(request.Url, request.Method ?? "GET") { downloadHandler = new DownloadHandlerBuffer(), timeout = TimeoutSeconds };
            if (request.Body != null)
            {
                www.uploadHandler = new UploadHandlerRaw(Encoding.UTF8.GetBytes(request.Body)) { contentType = "application/json" };
            }
            if (request.Headers != null) foreach (var kv in request.Headers) www.SetRequestHeader(kv.Key, kv.Value);
            var registration = ct.Register(() => main.Post(_ => www.Abort(), null));
            var operation = www.SendWebRequest();
            operation.completed += _ =>
            {
                registration.Dispose();
                try
                {
                    if (ct.IsCancellationRequested) done.TrySetCanceled();
                    else if (www.result == UnityWebRequest.Result.ConnectionError) done.TrySetException(new IOException(www.error));
                    else
                    {
                        var headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
                        var received = www.GetResponseHeaders();
                        if (received != null) foreach (var kv in received) headers[kv.Key] = kv.Value;
                        done.TrySetResult(new TransportResponse { Status = (int)www.responseCode, Headers = headers, Body = www.downloadHandler.text });
                    }
                }
                catch (Exception e)
                {
                    done.TrySetException(e);
                }
                finally
                {
                    www.Dispose();
                }
            };
        }
    }
}
#endif
