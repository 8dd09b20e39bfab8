// Test support for the SDK tests (not part of the SDK): a catalog, and a server
// that can be stopped and started again on the same port.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CatalogInput } from '@/lib/testing/types';

const DAY = 86_400_000;

export function sdkCatalog(now = Date.now()): CatalogInput {
  return {
    campaigns: [{ id: 'c1', title: 'Campaign one', description: 'd', startAt: now - DAY, endAt: now + 30 * DAY, bannerUrl: 'https://example.com/b.png' }],
    missions: [
      {
        id: 'three-matches',
        title: 'Play three matches',
        criteria: { eventName: 'match', count: 3 },
        reward: { kind: 'currency', currency: 'gems', amount: 50 },
        campaignId: 'c1',
      },
      { id: 'first-login', title: 'First login', criteria: { eventName: 'login', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 10 } },
      { id: 'badge-win', title: 'Win once', criteria: { eventName: 'win', count: 1 }, reward: { kind: 'badge', badgeId: 'winner' } },
    ],
  };
}

/** A plain Node server over the service's handlers on a fixed port, stoppable without closing the shared DB/KV/bus. */
export async function listenOn(port: number): Promise<{ server: Server; port: number; stop(): Promise<void> }> {
  const { createNodeServer } = await import('@/lib/http/node-server');
  const server = createNodeServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor(check: () => boolean, timeoutMs = 30_000, label = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${label}`);
    await sleep(20);
  }
}
