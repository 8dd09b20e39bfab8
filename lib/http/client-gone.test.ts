// The client-gone signal of the Node server (lib/http/node-server.ts): built
// only when something asks for it, and then aborted exactly when the client
// left before its answer was complete, whether it left before or after the ask.
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ClientGone } from './node-server';

/** The two things ClientGone reads of a response: its 'close' event and whether the answer was complete. */
function fakeResponse(): ServerResponse & { finish(): void } {
  const res = new EventEmitter() as EventEmitter & { writableFinished: boolean; finish(): void };
  res.writableFinished = false;
  res.finish = () => {
    res.writableFinished = true;
  };
  return res as unknown as ServerResponse & { finish(): void };
}

describe('ClientGone', () => {
  it('builds no AbortController for a request whose handler never asks', () => {
    const res = fakeResponse();
    const gone = new ClientGone(res);
    res.finish();
    res.emit('close');
    expect(gone.built).toBe(false);
  });

  it('aborts a signal asked for before the client left mid-answer', () => {
    const res = fakeResponse();
    const gone = new ClientGone(res);
    const signal = gone.signal;
    expect(signal.aborted).toBe(false);
    expect(gone.signal).toBe(signal);
    res.emit('close');
    expect(signal.aborted).toBe(true);
  });

  it('hands out an aborted signal when asked after the client left', () => {
    const res = fakeResponse();
    const gone = new ClientGone(res);
    res.emit('close');
    expect(gone.built).toBe(false);
    expect(gone.signal.aborted).toBe(true);
  });

  it('does not abort when the connection closes after a complete answer', () => {
    const res = fakeResponse();
    const gone = new ClientGone(res);
    const signal = gone.signal;
    res.finish();
    res.emit('close');
    expect(signal.aborted).toBe(false);
  });
});
