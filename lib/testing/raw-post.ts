// Test support: a POST with node:http on a connection of its own (no agent,
// no keep-alive pool), its body sent whole or in two parts. In two parts the
// server holds the request in flight until finish() sends the rest (drain
// tests); on a connection of its own a QUESTLINE_WORKERS primary hands it to
// either worker. The answer rejects whenever the exchange does not complete
// (refused, reset, cut mid-answer): it never stays pending on a dead socket.
import type { Socket } from 'node:net';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';

export interface RawPost {
  req: ClientRequest;
  /** The TCP connection is open (at once with `socket`). */
  connected: Promise<void>;
  answer: Promise<{ status: number; text: string }>;
  /** The head and the (first part of the) body are handed to the kernel. */
  flushed: Promise<void>;
  /** Sends the second part of the body (two parts only; a no-op when sent whole). */
  finish(): void;
}

export interface RawPostOptions {
  headers?: Record<string, string>;
  /** Send the body in two parts, the second on finish(). Default: whole. */
  split?: boolean;
  /** An open connection to use instead of a new one. */
  socket?: Socket;
}

export function rawPost(url: string, path: string, body: string, options: RawPostOptions = {}): RawPost {
  const target = new URL(path, url);
  let resolveAnswer!: (a: { status: number; text: string }) => void;
  let rejectAnswer!: (err: Error) => void;
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    resolveAnswer = resolve;
    rejectAnswer = reject;
  });
  // Awaited (or expected to reject) by the test, possibly after it settled.
  answer.catch(() => undefined);
  const socket = options.socket;
  let answered = false;
  const req = request(
    {
      host: target.hostname,
      port: target.port,
      path: target.pathname + target.search,
      method: 'POST',
      // No agent: with one (even `agent: false`, a fresh agent) node:http ignores createConnection.
      ...(socket ? { agent: undefined, createConnection: () => socket } : { agent: false }),
      headers: { 'Content-Type': 'application/json', ...options.headers, 'Content-Length': String(Buffer.byteLength(body)) },
    },
    (res: IncomingMessage) => {
      answered = true;
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolveAnswer({ status: res.statusCode ?? 0, text }));
      res.on('error', rejectAnswer);
      // Cut after the head: 'end' never comes, and without this the answer would stay pending.
      res.on('close', () => {
        if (!res.complete) rejectAnswer(new Error(`${path}: the connection closed in the middle of the answer (status ${res.statusCode})`));
      });
    },
  );
  req.on('error', rejectAnswer);
  req.on('close', () => {
    if (!answered) rejectAnswer(new Error(`${path}: the connection closed before an answer`));
  });
  const connected = socket
    ? Promise.resolve()
    : new Promise<void>((resolve) => req.once('socket', (s) => (s.connecting ? s.once('connect', () => resolve()) : resolve())));
  let flush!: () => void;
  const flushed = new Promise<void>((resolve) => (flush = resolve));
  if (!options.split) {
    req.end(body, flush);
    return { req, connected, answer, flushed, finish: () => undefined };
  }
  const half = Math.floor(body.length / 2);
  req.write(body.slice(0, half), flush);
  return { req, connected, answer, flushed, finish: () => req.end(body.slice(half)) };
}
