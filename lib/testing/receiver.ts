// Test support: a real local HTTP receiver for outbound webhooks. Records
// every request (headers and raw body) and answers with the status the
// test's `answer` function picks (default 200), or never answers ('hang').
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `predicate` holds over what was received (polls; throws after `timeoutMs`). */
  until(predicate: (received: Received[]) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (req: Received, index: number) => number | 'hang' = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const one = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(one);
      const status = answer(one, received.length - 1);
      if (status === 'hang') return;
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    async until(predicate, timeoutMs = 30_000, what = 'the expected deliveries') {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; received ${received.length}: ${received.map((r) => r.body).join('\n')}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
