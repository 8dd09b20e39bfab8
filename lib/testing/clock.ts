// Test support: moves the service clock (lib/clock.ts) of a server started
// with QUESTLINE_TEST_CLOCK=1, in this process or another, over real HTTP.

/** Sets the server's service clock to `now` (it keeps running from there), or back to the system clock with null; answers the server's new now. */
export async function setServerClock(baseUrl: string, adminKey: string, now: number | null): Promise<number> {
  const res = await fetch(`${baseUrl}/api/admin/test-clock`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${adminKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ now }),
  });
  if (res.status !== 200) throw new Error(`PUT /api/admin/test-clock answered ${res.status}: ${await res.text()} (is QUESTLINE_TEST_CLOCK=1 set for the server?)`);
  return ((await res.json()) as { now: number }).now;
}
