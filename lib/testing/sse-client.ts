// Test support: a raw Server-Sent Events reader over fetch that keeps every
// byte received, so tests can assert the exact wire format.
export interface SseFrame {
  /** The frame's text, without the blank line that ends it. */
  raw: string;
  id?: string;
  data?: string;
  comment?: string;
}

export class SseStream {
  /** Everything received so far, decoded as UTF-8. */
  raw = '';
  readonly frames: SseFrame[] = [];
  ended = false;
  private pending = '';
  private readonly done: Promise<void>;

  constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {
    this.done = this.pump();
  }

  /** Frames that carry data (messages), in arrival order. */
  get messages(): Array<{ id: string; data: string; raw: string }> {
    return this.frames.filter((f) => f.data !== undefined).map((f) => ({ id: f.id ?? '', data: f.data!, raw: f.raw }));
  }

  /** Parsed `{type, data}` of every message. */
  get updates(): Array<{ id: string; type: string; data: Record<string, unknown> }> {
    return this.messages.map((m) => {
      const parsed = JSON.parse(m.data) as { type: string; data: Record<string, unknown> };
      return { id: m.id, type: parsed.type, data: parsed.data };
    });
  }

  async waitFor(check: (s: SseStream) => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check(this)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; received so far:\n${JSON.stringify(this.raw)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  waitForMessages(n: number, timeoutMs?: number): Promise<void> {
    return this.waitFor((s) => s.messages.length >= n, `${n} message(s)`, timeoutMs);
  }

  /** Disconnects (the server sees the socket close) and waits for the reader to stop. */
  async close(): Promise<void> {
    this.abort.abort();
    await this.done;
  }

  private async pump(): Promise<void> {
    const body = this.response.status === 200 ? this.response.body : null;
    if (!body) {
      this.ended = true;
      return;
    }
    const reader = body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        this.raw += text;
        this.pending += text;
        let end: number;
        while ((end = this.pending.indexOf('\n\n')) >= 0) {
          this.frames.push(parseFrame(this.pending.slice(0, end)));
          this.pending = this.pending.slice(end + 2);
        }
      }
    } catch {
      // Aborted by close(), or the server went away.
    } finally {
      this.ended = true;
    }
  }
}

function parseFrame(raw: string): SseFrame {
  const frame: SseFrame = { raw };
  for (const line of raw.split('\n')) {
    if (line.startsWith(':')) frame.comment = line.slice(1).trim();
    else if (line.startsWith('id: ')) frame.id = line.slice(4);
    else if (line.startsWith('data: ')) frame.data = frame.data === undefined ? line.slice(6) : `${frame.data}\n${line.slice(6)}`;
  }
  return frame;
}

/** Opens a stream; answers the SseStream even for an error status (read `response`). */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { Accept: 'text/event-stream', ...headers }, signal: abort.signal });
  return new SseStream(response, abort);
}
