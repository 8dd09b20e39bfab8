// Delays of reconnects and retries: exponential from a base, capped, jittered (as the TypeScript SDK's backoff.ts).
using System;

namespace Questline
{
    public enum Jitter
    {
        /// <summary>Uniform in [d/2, d] (the default).</summary>
        Equal,
        /// <summary>Uniform in [0, d].</summary>
        Full,
        /// <summary>d.</summary>
        None,
    }

    public sealed class BackoffOptions
    {
        /// <summary>First delay, ms (default 1000).</summary>
        public long BaseMs { get; set; } = 1000;

        /// <summary>Cap, ms (default 30000).</summary>
        public long MaxMs { get; set; } = 30000;

        public Jitter Jitter { get; set; } = Jitter.Equal;

        /// <summary>Random source in [0, 1) (injectable for tests).</summary>
        public Func<double> Random { get; set; }
    }

    public static class Backoff
    {
        private static readonly Random Shared = new Random();

        /// <summary>The un-jittered delay before retry number <paramref name="attempt"/> (0 for the first retry).</summary>
        public static long Ceiling(int attempt, BackoffOptions options)
        {
            var o = options ?? new BackoffOptions();
            var shift = Math.Min(Math.Max(0, attempt), 30);
            var d = o.BaseMs * Math.Pow(2, shift);
            return (long)Math.Min(o.MaxMs, d);
        }

        /// <summary>The jittered delay before retry number <paramref name="attempt"/> (0-based).</summary>
        public static long Delay(int attempt, BackoffOptions options)
        {
            var o = options ?? new BackoffOptions();
            var ceiling = Ceiling(attempt, o);
            double r;
            if (o.Random != null) r = o.Random();
            else lock (Shared) r = Shared.NextDouble();
            switch (o.Jitter)
            {
                case Jitter.None: return ceiling;
                case Jitter.Full: return (long)Math.Floor(r * ceiling);
                default: return (long)Math.Floor(ceiling / 2.0 + r * ceiling / 2.0);
            }
        }
    }
}
