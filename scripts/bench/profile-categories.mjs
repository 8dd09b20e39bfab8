// The categories of a V8 profile's stack, shared by the CPU profile summary
// (scripts/bench/profile-summary.mjs) and the promoted-heap sampler
// (scripts/bench/promoted-heap.mjs), so both name the same code the same way.
// Each rule is tried on each frame from the leaf up: the first match names
// the sample.
const rules = [
  ['GC', (f) => f.functionName === '(garbage collector)'],
  ['idle', (f) => f.functionName === '(idle)'],
  ['metrics (prom-client)', (f) => /prom-client/.test(f.url) || /^(observe|metrics)$/.test(f.functionName) && /observe/.test(f.url)],
  ['logging (pino)', (f) => /node_modules\/(pino|sonic-boom|thread-stream)/.test(f.url)],
  ['zod validation', (f) => /node_modules\/zod/.test(f.url)],
  ['pg protocol + driver', (f) => /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-array|drizzle-orm)\//.test(f.url)],
  ['Redis client (ioredis)', (f) => /node_modules\/(ioredis|redis-parser|@ioredis|denque|cluster-key-slot|standard-as-callback)/.test(f.url)],
  ['token verify', (f) => /node_modules\/jose/.test(f.url) || /verifyAccessToken|verifyHs256|createHmac|timingSafeEqual/.test(f.functionName)],
  ['JSON parse/serialize', (f) => f.url === '' && /^(parse|stringify)$/.test(f.functionName)],
  ['mission evaluation', (f) => /explainEvent|evaluate|missionLock|toMissionProgress|claimedMissionIds|matchesFilter|relatedMissionIds|rollupRows|eventRollups/.test(f.functionName)],
  ['Upstash client (constructed per call)', (f) => /node_modules\/@upstash/.test(f.url)],
  ['web Request/Headers/AbortSignal', (f) => /node:internal\/(deps\/undici|abort_controller|worker\/js_transferable|event_target|webstreams)|node_modules\/undici/.test(f.url)],
  ['HTTP parse/write (node:http)', (f) => /node:(_http_|http$|internal\/http)/.test(f.url) || f.functionName === 'parserOnHeadersComplete' || f.functionName === 'parserOnBody' || f.functionName === 'parserOnMessageComplete'],
  ['crypto (uuid, hashes)', (f) => /node:(internal\/)?crypto/.test(f.url) || /^(randomUUID|digest|update)$/.test(f.functionName) && f.url === ''],
  ['Questline code (rest)', (f) => /questline-server\.mjs/.test(f.url)],
  ['timers, promises, event loop', (f) => /node:internal\/(timers|process\/task_queues|async_hooks)|node:timers/.test(f.url) || f.functionName === '(program)'],
];

/** The category of a stack of call frames (`{ functionName, url }`, leaf first), or null when no rule matches. */
export function categoryOf(frames) {
  for (const f of frames) {
    const hit = rules.find(([, test]) => test(f));
    if (hit) return hit[0];
  }
  return null;
}
