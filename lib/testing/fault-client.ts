// A client of the service for the fault suites: tokens signed in-process (the
// token endpoint itself may be down), request headers, and events sent under
// idempotency keys, remembering which the service accepted so the invariants
// can check the rows against them.
import { bounded, waitUntil, type Answer } from '@/lib/testing/faults';

/** A token signed in-process: the suites need one while the token endpoint fails closed. */
export async function signedToken(appId: string, userId: string): Promise<string> {
  const { signAccessToken } = await import('@/lib/auth/jwt');
  return (await signAccessToken(appId, userId)).accessToken;
}

export function authHeaders(token: string, key?: string): Record<string, string> {
  return { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...(key ? { 'Idempotency-Key': key } : {}) };
}

/** Events sent under keys to the server at `baseUrl()` (read at each send: the server starts after this is made). */
export function keyedEvents(baseUrl: () => string) {
  /** Keys the service answered 200, by user. */
  const accepted = new Map<string, Set<string>>();
  /** The body first sent under each key: a retry resends it unchanged (another body would be a misuse, 422). */
  const bodies = new Map<string, string>();

  /** POST /v1/events under `key`: 200 (accepted, remembered) or 503 unavailable, never a hang or a 500. */
  async function sendEvent(token: string, userId: string, key: string): Promise<Answer> {
    if (!bodies.has(key)) bodies.set(key, JSON.stringify({ userId, name: 'play', payload: {}, timestamp: Date.now() }));
    const answer = await bounded(`${baseUrl()}/v1/events`, { method: 'POST', headers: authHeaders(token, key), body: bodies.get(key)! });
    if (answer.status === 200) {
      if (!accepted.has(userId)) accepted.set(userId, new Set());
      accepted.get(userId)!.add(key);
    }
    return answer;
  }

  /** Retries `key` until accepted (a client's retry loop, same key): exactly-once after the fault. */
  async function sendUntilAccepted(token: string, userId: string, key: string): Promise<void> {
    await waitUntil(async () => (await sendEvent(token, userId, key)).status === 200, `event ${key} accepted`);
  }

  return { accepted, sendEvent, sendUntilAccepted };
}
