// Test support: "nothing more arrived" proven by evidence, not a pause. An
// outbound delivery is sent only inside a sweep of some instance; once every
// instance has begun and finished a whole sweep after this call, whatever any
// of them was sending meanwhile has reached the receiver (a send is awaited
// before its sweep ends), so a count taken then is final.

interface Instance {
  url: string;
  adminKey: string;
}

/** Outbound sweeps instance `i` has finished (questline_outbound_sweeps_total on its /api/metrics). */
async function sweepsDone(i: Instance): Promise<number> {
  const res = await fetch(`${i.url}/api/metrics`, { headers: { Authorization: `Bearer ${i.adminKey}` } });
  const match = /^questline_outbound_sweeps_total (\d+)/m.exec(await res.text());
  return match ? Number(match[1]) : 0;
}

/** Resolves once each instance has finished a sweep that began after this call (at most `timeoutMs`). */
export async function afterWholeSweeps(instances: Instance[], timeoutMs = 30_000): Promise<void> {
  const before = await Promise.all(instances.map(sweepsDone));
  const deadline = Date.now() + timeoutMs;
  // The sweep running at `before` may finish first (+1); the one after it began after `before` (+2).
  while (!(await Promise.all(instances.map(sweepsDone))).every((n, k) => n >= before[k] + 2)) {
    if (Date.now() > deadline) throw new Error(`no two whole outbound sweeps on every instance within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
