// The cost of a zoned player's mission window (lib/missions/windows.ts): the
// window's start and the next window's start, for events one second apart in
// three time zones. Run by hand: npx tsx scripts/bench/zoned-windows.ts
import { nextWindowStart, windowStart } from '@/lib/missions/windows';

const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo'];
const from = Date.UTC(2026, 10, 29, 12);
const n = Number(process.argv[2] ?? 200_000);
const started = performance.now();
let sum = 0;
for (let i = 0; i < n; i++) {
  const zone = zones[i % zones.length];
  sum += windowStart('daily', from + i * 1_000, zone) + nextWindowStart('daily', from + i * 1_000, zone);
}
const us = ((performance.now() - started) * 1_000) / n;
console.log(`${n} zoned events over ${((n * 1_000) / 3_600_000).toFixed(0)} h: ${us.toFixed(2)} µs each (window start + next start)${sum > 0 ? '' : ' (no result)'}`);
