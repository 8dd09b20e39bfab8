// Summarizes a V8 CPU profile (`node --cpu-prof`) of the server under the
// benchmark: self time by category and the top functions, over the window in
// which requests were served (from the first to the last sample whose stack
// holds `marker`; default `recordEvent`, else `handleApiRequest`), so start-up and shutdown do
// not count.
//   node scripts/bench/profile-summary.mjs /tmp/prof/CPU.….cpuprofile [--marker name] [--top 15]
import { readFileSync } from 'node:fs';
import { categoryOf } from './profile-categories.mjs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
if (!file) {
  console.error('usage: node scripts/bench/profile-summary.mjs FILE.cpuprofile [--marker fn] [--top N]');
  process.exit(2);
}
const marker = opt('marker', 'recordEvent');
const top = Number(opt('top', '15'));
const profile = JSON.parse(readFileSync(file, 'utf8'));

const nodes = new Map();
for (const n of profile.nodes) nodes.set(n.id, n);
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** The stack of a node, leaf first. */
const stacks = new Map();
function stackOf(id) {
  let s = stacks.get(id);
  if (s) return s;
  s = [];
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) s.push(nodes.get(cur).callFrame);
  stacks.set(id, s);
  return s;
}


const samples = profile.samples;
const deltas = profile.timeDeltas;
const times = [];
let t = profile.startTime;
for (const d of deltas) times.push((t += d));
let first = -1;
let last = -1;
// Without --marker: the events' window when the profile has one, else every request's.
for (const name of opt('marker', null) ? [marker] : ['recordEvent', 'handleApiRequest']) {
  for (let i = 0; i < samples.length; i++) {
    if (stackOf(samples[i]).some((f) => f.functionName === name)) {
      if (first < 0) first = i;
      last = i;
    }
  }
  if (first >= 0) break;
}
if (first < 0) {
  console.error(`no sample holds ${marker}`);
  process.exit(1);
}
const inclusive = new Map();
const byCat = new Map();
const bySelf = new Map();
let total = 0;
for (let i = first; i <= last; i++) {
  const dt = (deltas[i + 1] ?? 0) / 1000;
  const stack = stackOf(samples[i]);
  total += dt;
  // Socket writes and stream plumbing count for whoever wrote (pg, Redis, the HTTP answer).
  const cat = categoryOf(stack) ?? 'sockets, streams (caller not on the stack)';
  byCat.set(cat, (byCat.get(cat) ?? 0) + dt);
  for (const name of new Set(stack.filter((f) => /questline-server\.mjs/.test(f.url)).map((f) => f.functionName || '(anonymous)'))) {
    inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
  }
  const leaf = stack[0];
  const where = leaf.url ? `${leaf.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\//, '')}:${leaf.lineNumber + 1}` : '(native)';
  const key = `${leaf.functionName || '(anonymous)'} ${where}`;
  bySelf.set(key, (bySelf.get(key) ?? 0) + dt);
}
const pct = (ms) => `${((100 * ms) / total).toFixed(1)} %`;
const busy = total - (byCat.get('idle') ?? 0);
console.log(`window: ${(total / 1000).toFixed(1)} s (${last - first + 1} samples), busy ${(busy / 1000).toFixed(1)} s (${pct(busy)})`);
console.log('\n| category (self time, first match from the leaf up) | ms | share | share of busy |\n|---|---|---|---|');
for (const [cat, ms] of [...byCat].sort((a, b) => b[1] - a[1])) {
  console.log(`| ${cat} | ${ms.toFixed(0)} | ${pct(ms)} | ${cat === 'idle' ? '—' : `${((100 * ms) / busy).toFixed(1)} %`} |`);
}
console.log(`\n| top ${top} functions (self) | ms | share |\n|---|---|---|`);
for (const [fn, ms] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`| \`${fn}\` | ${ms.toFixed(0)} | ${pct(ms)} |`);
console.log(`\n| Questline functions (inclusive) | ms | share |\n|---|---|---|`);
for (const [fn, ms] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`| \`${fn}\` | ${ms.toFixed(0)} | ${pct(ms)} |`);
