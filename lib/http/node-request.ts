// The request the Node server (lib/http/node-server.ts) hands the route
// table's handlers when the body is already read (or there is none): the
// members they use of a web Request (method, url, headers, body, signal,
// text/json/arrayBuffer), over Node's own parsed request, without undici
// building a Request, a Headers copy and a web stream per request (about a
// tenth of the server's CPU under the many-players benchmark,
// docs/engineering/benchmarks.md). The Next.js route files and Better Auth's routes keep
// real web Requests, as does a body that streams (chunked, or announced over
// the cap).
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Read-only Headers over Node's header record (names already lower-cased by
 * Node's parser; repeated headers already joined, `set-cookie` an array).
 * Iterable as [name, value] pairs, so `new Headers(nodeHeaders)` copies it.
 */
class NodeHeaders {
  constructor(private readonly record: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.record[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.record[name.toLowerCase()] !== undefined;
  }

  getSetCookie(): string[] {
    const value = this.record['set-cookie'];
    return value === undefined ? [] : Array.isArray(value) ? [...value] : [value];
  }

  forEach(callback: (value: string, name: string, parent: NodeHeaders) => void): void {
    for (const [name, value] of this) callback(value, name, this);
  }

  /** As web Headers: sorted by name, each `set-cookie` on its own, other repeats joined. */
  *entries(): IterableIterator<[string, string]> {
    const names = Object.keys(this.record).sort();
    for (const name of names) {
      const value = this.record[name];
      if (value === undefined) continue;
      if (name === 'set-cookie') for (const cookie of Array.isArray(value) ? value : [value]) yield [name, cookie];
      else yield [name, Array.isArray(value) ? value.join(', ') : value];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/**
 * method, url (absolute, as a web Request's), headers, the body already read
 * (null for GET and HEAD), and the signal of the client going away, read
 * only when asked. The body's web stream is built only if something reads
 * `body`; lib/http/body.ts takes the bytes directly (bufferedBody).
 */
export class NodeRequest {
  readonly headers: NodeHeaders;
  private stream: ReadableStream<Uint8Array> | null = null;
  private used = false;

  constructor(
    readonly method: string,
    readonly url: string,
    record: IncomingHttpHeaders,
    private readonly bytes: Buffer | null,
    private readonly signalOf: () => AbortSignal,
  ) {
    this.headers = new NodeHeaders(record);
  }

  get signal(): AbortSignal {
    return this.signalOf();
  }

  get bodyUsed(): boolean {
    return this.used || (this.stream?.locked ?? false);
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.bytes === null) return null;
    if (!this.stream) {
      const bytes = this.bytes;
      this.stream = new ReadableStream<Uint8Array>({
        start(controller) {
          if (bytes.length > 0) controller.enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
          controller.close();
        },
      });
    }
    return this.stream;
  }

  /** The body's bytes, once (a web Request's body can be read once too). */
  takeBytes(): Buffer {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.used = true;
    return this.bytes ?? Buffer.alloc(0);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.takeBytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(this.takeBytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }
}

/** The bytes of a NodeRequest's body, taken without a stream; undefined for a web Request (read its stream). */
export function bufferedBody(req: Request): Buffer | undefined {
  const light: unknown = req;
  return light instanceof NodeRequest ? light.takeBytes() : undefined;
}
