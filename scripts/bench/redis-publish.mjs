// What an event's after-commit Redis traffic costs the process, by the way
// the staff stream's announcement (lib/updates/staff.ts) is published
// (docs/engineering/benchmarks.md, "Many players: the staff announcement's own socket write"):
//   bus-direct     the bus's publishing connection writes each PUBLISH at once (before 14c1dc1)
//   bus-pipelined  that connection auto-pipelined (lib/bus/redis.ts now)
//   kv             published through the key-value store's auto-pipelined connection, with the ordered publish and cache write
// Each op: the token checks' MGET, a turn, then the ordered publish, the
// idempotency-cache SET and the announcement together; C loops at once
// (default 64). Prints the process's CPU per op (user + system) and ops/s.
//   REDIS_URL=redis://127.0.0.1:6379/N [C=64] [N=20000] node scripts/bench/redis-publish.mjs bus-direct|bus-pipelined|kv
import { Redis } from 'ioredis';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const mode = process.argv[2];
if (!['bus-direct', 'bus-pipelined', 'kv'].includes(mode ?? '')) {
  console.error('usage: node scripts/bench/redis-publish.mjs bus-direct|bus-pipelined|kv');
  process.exit(2);
}
const kv = new Redis(url, { enableAutoPipelining: true });
const busPub = new Redis(url, { enableAutoPipelining: mode === 'bus-pipelined' });
const now = Date.now();
const message = JSON.stringify({
  kind: 'event.recorded',
  id: `evt_${'x'.repeat(36)}`,
  userId: 'u1',
  name: 'level_complete',
  payload: { level: 3 },
  timestamp: now,
  receivedAt: now,
  source: 'api',
  outcome: [
    { missionId: 'm1', counted: true, reason: 'counted' },
    { missionId: 'm2', counted: false, reason: 'locked' },
  ],
});
await kv.ping();
await busPub.ping();
const total = Number(process.env.N ?? 20_000);
const concurrency = Number(process.env.C ?? 64);
let next = 0;

async function one(i) {
  await kv.mget(`bench:d:${i}`, `bench:u:${i}`, 'bench:r', 'bench:w');
  await new Promise((resolve) => setImmediate(resolve));
  const channel = `bench:staff:${i % 1000}`;
  const announce = mode === 'kv' ? kv.publish(channel, message) : busPub.publish(channel, message);
  await Promise.all([kv.publish(`bench:user:${i % 1000}`, message), kv.set(`bench:idem:${i % 5000}`, message, 'EX', 60), announce]);
}

const cpu0 = process.cpuUsage();
const wall0 = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < total) await one(next++);
  }),
);
const cpu = process.cpuUsage(cpu0);
const wall = performance.now() - wall0;
const us = (micros) => (micros / total).toFixed(1);
console.log(`${mode} C=${concurrency}: cpu ${us(cpu.user + cpu.system)} µs/op (user ${us(cpu.user)}, system ${us(cpu.system)}), ${((total / wall) * 1000).toFixed(0)} ops/s`);
kv.disconnect();
busPub.disconnect();
