// Event-ingestion benchmark: N users × M events through POST /v1/events over
// real HTTP against the plain Node server (in this process) or a running
// instance (BENCH_URL, e.g. a `next start`). Prints throughput and latency.
//   npx tsx scripts/bench-events.ts                (embedded PGlite + in-process store)
//   DATABASE_URL=… REDIS_URL=… JWT_SECRET=… npx tsx scripts/bench-events.ts
//   BENCH_URL=http://127.0.0.1:3000 BENCH_ADMIN_KEY=… npx tsx scripts/bench-events.ts
import { performance } from 'node:perf_hooks';
import { createTestApp, issueToken, startTestServer, type TestServer } from '@/lib/testing/test-server';

const USERS = Number(process.env.BENCH_USERS ?? 100);
const EVENTS_PER_USER = Number(process.env.BENCH_EVENTS ?? 50); // under the 100/60 s per-token limit
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const server: TestServer = process.env.BENCH_URL
    ? { url: process.env.BENCH_URL, adminKey: process.env.BENCH_ADMIN_KEY ?? '', close: async () => undefined }
    : await startTestServer();
  const app = await createTestApp(server, {
    missions: [
      { id: 'm-life', title: 'Lifetime', criteria: { eventName: 'match_played', count: 1000 }, reward: { kind: 'currency', currency: 'gems', amount: 1 } },
      { id: 'm-daily', title: 'Daily', criteria: { eventName: 'match_played', count: 10, window: 'daily' }, reward: { kind: 'currency', currency: 'coins', amount: 1 } },
      {
        id: 'm-filter',
        title: 'Filtered',
        criteria: { eventName: 'match_played', count: 20, filter: { mode: 'ranked', score: { gte: 10 } } },
        reward: { kind: 'badge', badgeId: 'b' },
      },
    ],
  });
  const tokens = await Promise.all(Array.from({ length: USERS }, (_, i) => issueToken(server, app, `bench-user-${i}`)));
  const jobs: { user: number; seq: number }[] = [];
  for (let seq = 0; seq < EVENTS_PER_USER; seq++) for (let user = 0; user < USERS; user++) jobs.push({ user, seq });

  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  const rssBefore = process.memoryUsage().rss;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs.length) {
        const { user, seq } = jobs[next++];
        const t0 = performance.now();
        const res = await fetch(`${server.url}/v1/events`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${tokens[user]}`, 'Content-Type': 'application/json', 'Idempotency-Key': `b-${user}-${seq}` },
          body: JSON.stringify({ userId: `bench-user-${user}`, name: 'match_played', payload: { mode: 'ranked', score: seq }, timestamp: Date.now() }),
        });
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (res.status !== 200) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const rss = process.memoryUsage().rss;
  console.log(
    JSON.stringify(
      {
        target: process.env.BENCH_URL ?? `plain Node server in-process (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'} + ${process.env.REDIS_URL ? 'Redis' : 'in-process store'})`,
        events: jobs.length,
        failures,
        concurrency: CONCURRENCY,
        seconds: Number(seconds.toFixed(2)),
        eventsPerSecond: Math.round(jobs.length / seconds),
        latencyMs: { p50: Number(percentile(latencies, 50).toFixed(1)), p99: Number(percentile(latencies, 99).toFixed(1)), max: Number(latencies[latencies.length - 1].toFixed(1)) },
        processRssMb: { before: Math.round(rssBefore / 1e6), after: Math.round(rss / 1e6) },
      },
      null,
      2,
    ),
  );
  await server.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
