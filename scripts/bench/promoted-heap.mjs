// `node scripts/bench/promoted-heap.mjs [seconds] [inspector port]`: which
// code allocates the objects that outlive the young generation and die in a
// major GC (the Mark-Compacts that slow every request in flight:
// docs/engineering/benchmarks.md, "Where the claims' slow 1 % comes from").
//
// Run it against a server started with the inspector, under load, e.g.
//   BENCH_NODE_OPTIONS=--inspect=127.0.0.1:9229 npm run bench -- --only claims --no-build
// and, once the run's warm-up has started, in another shell:
//   node scripts/bench/promoted-heap.mjs 15
// It samples allocations for that many seconds through V8's sampling heap
// profiler, keeping the samples of objects a major GC collects and dropping
// those a scavenge collects, so what it reports is the live heap plus the
// promoted garbage; then it prints the sampled bytes by category (the CPU
// profile summary's: scripts/bench/profile-categories.mjs) and the top
// allocation sites.
import WebSocket from 'ws';
import { categoryOf } from './profile-categories.mjs';

const seconds = Number(process.argv[2] ?? 15);
const port = Number(process.argv[3] ?? 9229);
const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
if (!target) throw new Error(`no inspector target on port ${port}`);
const ws = new WebSocket(target.webSocketDebuggerUrl, { maxPayload: 1 << 30 });
await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
let lastId = 0;
const pending = new Map();
ws.on('message', (raw) => {
  const message = JSON.parse(String(raw));
  pending.get(message.id)?.(message);
  pending.delete(message.id);
});
const send = (method, params = {}) =>
  new Promise((resolve) => {
    const id = ++lastId;
    pending.set(id, resolve);
    ws.send(JSON.stringify({ id, method, params }));
  });

await send('HeapProfiler.enable');
await send('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false });
console.log(`sampling for ${seconds} s…`);
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const { result } = await send('HeapProfiler.stopSampling');
ws.close();

const byPackage = new Map();
const bySite = new Map();
let total = 0;
/** `frames`: the node's stack, leaf first. */
const walk = (node, frames) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const stack = [node.callFrame, ...frames];
  if (node.selfSize > 0) {
    total += node.selfSize;
    const pkg = categoryOf(stack) ?? 'Node.js and other';
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + node.selfSize);
    const site = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
  }
  for (const child of node.children) walk(child, stack);
};
walk(result.profile.head, []);
const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
console.log(`\nsampled (live + promoted garbage): ${mb(total)} in ${seconds} s\n`);
console.log('| allocated in (first match from the leaf up) | bytes | share |\n|---|---|---|');
for (const [name, bytes] of [...byPackage].sort((a, b) => b[1] - a[1])) console.log(`| ${name} | ${mb(bytes)} | ${((100 * bytes) / total).toFixed(0)} % |`);
console.log('\n| top allocation sites (self) | bytes |\n|---|---|');
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`| \`${site}\` | ${mb(bytes)} |`);
