// Lets the @upstash/redis client (and so @upstash/ratelimit) run over a plain
// TCP connection: it answers the client's REST-shaped requests with ioredis.
import { createHash } from 'node:crypto';
import { ReplyError } from 'ioredis';
import type { Requester, UpstashRequest, UpstashResponse } from '@upstash/redis';
import { throughBreaker } from './breaker';
import type { RedisConnection } from './connection';

type Arg = string | number;

interface Prepared {
  cmd: Arg[];
  /** Run instead when `cmd` answers NOSCRIPT (also used inside batches). */
  fallback?: Arg[];
  /** Rewrites the reply, e.g. to report the sha the caller computed. */
  mapResult?: (result: unknown) => unknown;
}

// Upstash accepts `#!lua flags=allow-key-locking`; Redis 7.0 rejects that flag.
const SHEBANG = /^#!lua[^\n]*/;

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

export class TcpRequester implements Requester {
  /** sha of the script as the caller sent it → the script Redis actually runs. */
  private readonly scripts = new Map<string, { script: string; sha: string }>();

  constructor(private readonly redis: RedisConnection) {}

  async request<TResult = unknown>(req: UpstashRequest): Promise<UpstashResponse<TResult>> {
    const [route] = req.path ?? [];
    // Pipelines answer with an array of responses even though the Requester
    // type says otherwise; Pipeline.exec maps over it.
    if (route === 'pipeline' || route === 'multi-exec') {
      const batch = await this.batch(req.body as Arg[][], route === 'multi-exec');
      return batch as unknown as UpstashResponse<TResult>;
    }
    if (route !== undefined) {
      // e.g. SSE subscribe: the Redis bus talks to ioredis directly instead.
      return { error: `ERR /${route} is not supported over TCP` };
    }
    const prepared = this.prepare(req.body as Arg[]);
    try {
      const result = await this.call(prepared.cmd).catch((err: unknown) => {
        if (prepared.fallback && isNoScript(err)) return this.call(prepared.fallback);
        throw err;
      });
      return { result: (prepared.mapResult ? prepared.mapResult(result) : result) as TResult };
    } catch (err) {
      // Redis answered with an error: hand it back like the REST API does.
      // Anything else (connection lost, timeout) is thrown, as fetch would.
      const message = replyErrorMessage(err);
      if (message !== null) return { error: message };
      throw err;
    }
  }

  private async batch(commands: Arg[][], atomic: boolean): Promise<UpstashResponse<unknown>[]> {
    const chain = atomic ? this.redis.multi() : this.redis.pipeline();
    // No NOSCRIPT round trip is possible mid-batch, so send whole scripts.
    const prepared = commands.map((c) => this.prepare(c));
    for (const p of prepared) {
      const [name, ...args] = p.fallback ?? p.cmd;
      chain.call(String(name), ...args);
    }
    // A transaction rejected at EXEC (EXECABORT) rejects here; the REST API
    // answers that with an HTTP error, which the HTTP client throws too.
    const replies = (await throughBreaker(() => chain.exec())) ?? [];
    return replies.map(([err, result], i) => {
      if (err) return { error: err.message };
      const map = prepared[i].mapResult;
      return { result: map ? map(result) : result };
    });
  }

  private call([name, ...args]: Arg[]): Promise<unknown> {
    return throughBreaker(() => this.redis.call(String(name), ...args));
  }

  /** Normalises arguments and rewrites script commands for plain Redis. */
  private prepare(raw: Arg[]): Prepared {
    // Booleans travel as JSON over REST; over RESP everything is a string.
    const cmd = raw.map((a) => (typeof a === 'number' ? a : String(a)));
    const name = String(cmd[0]).toLowerCase();
    if (name === 'eval' || name === 'eval_ro') {
      return { cmd: [cmd[0], this.register(String(cmd[1])).script, ...cmd.slice(2)] };
    }
    if (name === 'evalsha' || name === 'evalsha_ro') {
      const known = this.scripts.get(String(cmd[1]).toLowerCase());
      // Unknown sha: pass through; Redis says NOSCRIPT and the client retries
      // with EVAL, which registers the script for next time.
      if (!known) return { cmd };
      const rest = cmd.slice(2);
      const evalName = name === 'evalsha' ? 'eval' : 'eval_ro';
      return { cmd: [cmd[0], known.sha, ...rest], fallback: [evalName, known.script, ...rest] };
    }
    if (name === 'script' && String(cmd[1]).toLowerCase() === 'load') {
      const original = String(cmd[2]);
      const runnable = this.register(original).script;
      // Callers EVALSHA the sha they computed over what they sent.
      return { cmd: [cmd[0], cmd[1], runnable], mapResult: () => sha1(original) };
    }
    return { cmd };
  }

  /** Strips the shebang if any and remembers original sha → runnable script. */
  private register(original: string): { script: string; sha: string } {
    if (!SHEBANG.test(original)) return { script: original, sha: sha1(original) };
    const originalSha = sha1(original);
    const cached = this.scripts.get(originalSha);
    if (cached) return cached;
    // Blank the line rather than delete it so Lua error line numbers still match.
    const script = original.replace(SHEBANG, '');
    const entry = { script, sha: sha1(script) };
    this.scripts.set(originalSha, entry);
    return entry;
  }
}

/** The message of an error reply from Redis; null for any other failure. */
function replyErrorMessage(err: unknown): string | null {
  // ioredis types ReplyError as `any`, hence the extra Error check to narrow.
  return err instanceof ReplyError && err instanceof Error ? err.message : null;
}

function isNoScript(err: unknown): boolean {
  return replyErrorMessage(err)?.startsWith('NOSCRIPT') ?? false;
}
