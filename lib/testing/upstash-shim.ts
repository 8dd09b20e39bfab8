// Test support: a small Upstash-REST-compatible HTTP server backed by a real
// Redis (ioredis): `POST /` with a command array, `POST /pipeline` with an
// array of them, answers `{result}` / `{error}` like Upstash, base64-encoding
// strings when the client asks (`Upstash-Encoding: base64`). Enough for
// @upstash/redis's KV commands; it lets the REST adapter's timeout and breaker
// be tried against real HTTP (put a FaultProxy in front to stall or refuse).
import { createServer, type Server } from 'node:http';
import { Redis as IORedis } from 'ioredis';

type Reply = { result: unknown } | { error: string };

function encode(value: unknown, base64: boolean): unknown {
  if (!base64) return value;
  if (typeof value === 'string') return value === 'OK' ? value : Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map((v) => encode(v, base64));
  return value;
}

export interface UpstashShim {
  url: string;
  port: number;
  token: string;
  /** Commands answered so far. */
  commands: number;
  close(): Promise<void>;
}

export async function startUpstashShim(redisUrl: string, token = 'shim-token'): Promise<UpstashShim> {
  const redis = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  const run = async (cmd: unknown[], base64: boolean): Promise<Reply> => {
    shim.commands += 1;
    try {
      const [name, ...args] = cmd.map((a) => (typeof a === 'number' ? a : String(a)));
      return { result: encode(await redis.call(String(name), ...args), base64) };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      void (async () => {
        const send = (status: number, value: unknown) => {
          res.writeHead(status, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify(value));
        };
        if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: 'Unauthorized' });
        const base64 = String(req.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64';
        const parsed = JSON.parse(body) as unknown[];
        if (req.url === '/pipeline' || req.url === '/multi-exec') {
          return send(200, await Promise.all((parsed as unknown[][]).map((c) => run(c, base64))));
        }
        const reply = await run(parsed, base64);
        send('error' in reply ? 400 : 200, reply);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const shim: UpstashShim = {
    url: `http://127.0.0.1:${port}`,
    port,
    token,
    commands: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
    },
  };
  return shim;
}
