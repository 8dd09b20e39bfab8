// The player's access token: asked of the game (which asks its backend) when
// there is none, when the one held expires (its JWT `exp`, a margin ahead),
// and after the service refused it with 401. Concurrent callers share one ask.
using System;
using System.Collections.Generic;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Questline
{
    internal sealed class TokenCache
    {
        private readonly Func<CancellationToken, Task<string>> provider;
        private readonly TimeSpan refreshAhead;
        private readonly Func<DateTimeOffset> now;
        private readonly SemaphoreSlim gate = new SemaphoreSlim(1, 1);
        private string current;
        private DateTimeOffset? expiresAt;

        public TokenCache(string fixedToken, Func<CancellationToken, Task<string>> provider, TimeSpan refreshAhead, Func<DateTimeOffset> now)
        {
            this.provider = provider;
            this.refreshAhead = refreshAhead;
            this.now = now;
            if (fixedToken != null) Set(fixedToken);
        }

        public bool CanRefresh { get { return provider != null; } }

        /// <summary>The token to send: the one held unless it is (about to be) expired.</summary>
        public async Task<string> GetAsync(CancellationToken ct)
        {
            var held = current;
            if (held != null && Fresh()) return held;
            return await AskAsync(held, ct).ConfigureAwait(false);
        }

        /// <summary>A token other than <paramref name="rejected"/> (which got a 401): asks the game unless another caller already did.</summary>
        public Task<string> RefreshAsync(string rejected, CancellationToken ct)
        {
            return AskAsync(rejected, ct);
        }

        private async Task<string> AskAsync(string stale, CancellationToken ct)
        {
            if (provider == null)
            {
                if (current != null) return current;
                throw new UnauthorizedException(0, "unauthorized", "No token configured (pass Token or TokenProvider)", null);
            }
            await gate.WaitAsync(ct).ConfigureAwait(false);
            try
            {
                // Another caller got a new one while this one waited.
                if (current != null && current != stale && Fresh()) return current;
                var token = await provider(ct).ConfigureAwait(false);
                if (string.IsNullOrEmpty(token)) throw new UnauthorizedException(0, "unauthorized", "The token provider answered no token", null);
                Set(token);
                return token;
            }
            finally
            {
                gate.Release();
            }
        }

        private bool Fresh()
        {
            return !expiresAt.HasValue || now() < expiresAt.Value - refreshAhead;
        }

        private void Set(string token)
        {
            current = token;
            var exp = Claims(token, "exp");
            expiresAt = exp is long ? DateTimeOffset.FromUnixTimeSeconds((long)exp) : (DateTimeOffset?)null;
        }

        /// <summary>A claim of a JWT, read without verification (the server verifies); null when absent or unreadable.</summary>
        internal static object Claims(string token, string name)
        {
            try
            {
                var parts = token.Split('.');
                if (parts.Length < 2) return null;
                var b64 = parts[1].Replace('-', '+').Replace('_', '/');
                b64 = b64.PadRight(b64.Length + (4 - b64.Length % 4) % 4, '=');
                var claims = Json.Parse(Encoding.UTF8.GetString(Convert.FromBase64String(b64))) as Dictionary<string, object>;
                return claims == null ? null : Json.Get(claims, name);
            }
            catch (FormatException)
            {
                return null;
            }
        }
    }
}
