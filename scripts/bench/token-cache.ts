// `tsx scripts/bench/token-cache.ts [users] [rounds]`: the verified-token
// cache (lib/auth/jwt.ts verifyAccessTokenCached) when more players than it
// holds are active: `users` tokens used round-robin (a game's many players,
// each coming back after every other), printing the process CPU time per
// call. docs/engineering/benchmarks.md cites it; no test asserts a time.
import { performance } from 'node:perf_hooks';

process.env.JWT_SECRET ??= 'bench-token-cache-secret-0123456789abcdef';
const users = Number(process.argv[2] ?? 60_000);
const rounds = Number(process.argv[3] ?? 3);

async function main() {
  const { issueAccessToken, verifyAccessTokenCached } = await import('@/lib/auth/jwt');
  const tokens: string[] = [];
  for (let i = 0; i < users; i++) tokens.push((await issueAccessToken('bench', `player-${i}`)).accessToken);
  for (let r = 0; r < rounds; r++) {
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    for (const token of tokens) await verifyAccessTokenCached(token);
    const used = process.cpuUsage(cpu);
    console.log(`round ${r + 1}: ${users} calls, ${(((used.user + used.system) / users)).toFixed(1)} µs CPU per call, ${((performance.now() - t0) / 1000).toFixed(2)} s wall`);
  }
}
void main();
