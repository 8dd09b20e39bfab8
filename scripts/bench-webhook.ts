// Webhook benchmark: signed deliveries of 100 events (10 players each)
// through POST /v1/webhook/incoming over real HTTP against the plain Node
// server in this process, as a game backend sends them: by default all to ONE
// app (60,000 events a minute by default), from BENCH_CONCURRENCY workers at
// once, each delivery for 10 of BENCH_PLAYERS players, so deliveries in flight
// share the app's rollup rows but mostly not their players. Prints throughput,
// latency and the failures (a deadlock answered 500 here before the rollups
// were written in one order).
//   npx tsx scripts/bench-webhook.ts                (embedded PGlite + in-process store)
//   DATABASE_URL=… REDIS_URL=… JWT_SECRET=… npx tsx scripts/bench-webhook.ts
//   BENCH_APPS=5 BENCH_DELIVERIES=10 …             (the earlier shape: 10 deliveries to each of 5 apps)
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createTestApp, startTestServer } from '@/lib/testing/test-server';
import { sendDelivery } from '@/lib/testing/webhook';

const APPS = Number(process.env.BENCH_APPS ?? 1);
const DELIVERIES_PER_APP = Number(process.env.BENCH_DELIVERIES ?? 50);
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 500);
const EVENTS = 100;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main(): Promise<void> {
  const server = await startTestServer();
  const catalog = {
    missions: [
      { id: 'm-life', title: 'Lifetime', criteria: { eventName: 'match_played', count: 1000 }, reward: { kind: 'currency' as const, currency: 'gems', amount: 1 } },
      { id: 'm-daily', title: 'Daily', criteria: { eventName: 'match_played', count: 10, window: 'daily' as const }, reward: { kind: 'currency' as const, currency: 'coins', amount: 1 } },
    ],
  };
  const apps = await Promise.all(Array.from({ length: APPS }, () => createTestApp(server, catalog)));
  const jobs = apps.flatMap((app) => Array.from({ length: DELIVERIES_PER_APP }, (_, d) => ({ app, d })));
  const latencies: number[] = [];
  const failures: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs.length) {
        const { app, d } = jobs[next++];
        const events = Array.from({ length: EVENTS }, (_, i) => ({
          userId: `player-${(d * 10 + (i % 10)) % PLAYERS}`,
          name: 'match_played',
          payload: { mode: 'ranked' },
          timestamp: Date.now(),
          idempotencyKey: `${d}-${i}-${randomUUID()}`,
        }));
        const t0 = performance.now();
        const sent = await sendDelivery(server, app, { events });
        latencies.push(performance.now() - t0);
        if (sent.status !== 200) failures.push(sent.status);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    JSON.stringify(
      {
        target: `plain Node server in-process (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'} + ${process.env.REDIS_URL ? 'Redis' : 'in-process store'})`,
        deliveries: jobs.length,
        eventsPerDelivery: EVENTS,
        failures: failures.length,
        failureStatuses: [...new Set(failures)],
        concurrency: CONCURRENCY,
        seconds: Number(seconds.toFixed(2)),
        deliveriesPerSecond: Number((jobs.length / seconds).toFixed(1)),
        eventsPerSecond: Math.round((jobs.length * EVENTS) / seconds),
        latencyMs: { p50: Math.round(percentile(latencies, 50)), p99: Math.round(percentile(latencies, 99)), max: Math.round(latencies[latencies.length - 1]) },
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
