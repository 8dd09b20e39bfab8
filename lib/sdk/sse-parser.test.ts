import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from './sse-parser';

function parseChunks(chunks: string[]) {
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const parser = createSseParser((m) => messages.push(m), (c) => comments.push(c));
  for (const c of chunks) parser.feed(c);
  return { messages, comments, parser };
}

const STREAM = ': connected\n\nid: 1\ndata: {"type":"a"}\n\n: keep-alive\n\nid: 2\ndata: {"type":"b"}\n\n';

describe('SSE parser', () => {
  it('parses ids, data and comments', () => {
    const { messages, comments } = parseChunks([STREAM]);
    expect(messages.map((m) => [m.id, m.data])).toEqual([
      ['1', '{"type":"a"}'],
      ['2', '{"type":"b"}'],
    ]);
    expect(comments).toEqual(['connected', 'keep-alive']);
  });

  it('gives the same result for every split point, and byte by byte', () => {
    const whole = parseChunks([STREAM]).messages;
    for (let i = 0; i <= STREAM.length; i++) {
      expect(parseChunks([STREAM.slice(0, i), STREAM.slice(i)]).messages).toEqual(whole);
    }
    expect(parseChunks([...STREAM]).messages).toEqual(whole);
  });

  it('accepts CRLF and lone CR line ends, including a CRLF split between chunks', () => {
    const crlf = STREAM.replace(/\n/g, '\r\n');
    const cr = STREAM.replace(/\n/g, '\r');
    const whole = parseChunks([STREAM]).messages;
    expect(parseChunks([crlf]).messages).toEqual(whole);
    expect(parseChunks([cr]).messages).toEqual(whole);
    for (let i = 0; i <= crlf.length; i++) expect(parseChunks([crlf.slice(0, i), crlf.slice(i)]).messages).toEqual(whole);
  });

  it('joins multi-line data with LF and strips one leading space only', () => {
    const { messages } = parseChunks(['data: line 1\ndata:line 2\ndata:  indented\n\n']);
    expect(messages[0].data).toBe('line 1\nline 2\n indented');
  });

  it('keeps the last id across messages, ignores unknown fields and event-less blocks', () => {
    const { messages, parser } = parseChunks(['id: 7\nfoo: bar\ndata: x\n\nid: 8\n\ndata: y\n\n']);
    expect(messages.map((m) => [m.id, m.data])).toEqual([
      ['7', 'x'],
      ['8', 'y'],
    ]);
    expect(parser.lastEventId).toBe('8');
  });

  it('does not dispatch an unterminated message, and reset() drops it', () => {
    const { messages, parser } = parseChunks(['id: 1\ndata: partial']);
    expect(messages).toHaveLength(0);
    parser.reset();
    parser.feed('\n\ndata: next\n\n');
    expect(messages.map((m) => m.data)).toEqual(['next']);
  });

  it('reads event and retry fields and strips a leading BOM', () => {
    const { messages } = parseChunks(['\ufeffevent: custom\nretry: 5000\ndata: z\n\n']);
    expect(messages[0]).toMatchObject({ event: 'custom', retry: 5000, data: 'z' });
  });
});
