// A Server-Sent Events parser (WHATWG "event stream interpretation") over
// decoded text: chunks may split anywhere (even between CR and LF); lines end
// in LF, CR or CRLF; comment lines are reported apart; data lines join with LF.
export interface SseMessage {
  /** The last event id seen so far (persists across messages, as in EventSource). */
  id: string | null;
  event: string;
  data: string;
  retry?: number;
}

export interface SseParser {
  /** Feeds decoded text (use TextDecoder with { stream: true } for bytes). */
  feed(text: string): void;
  /** Forgets a partial message (after a reconnect). Keeps the last event id. */
  reset(): void;
  readonly lastEventId: string | null;
}

export function createSseParser(onMessage: (m: SseMessage) => void, onComment?: (text: string) => void): SseParser {
  let buffer = '';
  let skipLf = false; // the previous chunk ended on CR: a leading LF belongs to it
  let first = true;
  let data: string[] = [];
  let event = '';
  let retry: number | undefined;
  let lastEventId: string | null = null;

  const dispatch = () => {
    if (data.length > 0) onMessage({ id: lastEventId, event: event || 'message', data: data.join('\n'), retry });
    data = [];
    event = '';
    retry = undefined;
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return onComment?.(text.slice(1).replace(/^ /, ''));
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    const value = colon === -1 ? '' : text.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id') {
      if (!value.includes('\0')) lastEventId = value;
    } else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  };

  return {
    feed(text: string) {
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (skipLf && text.startsWith('\n')) text = text.slice(1);
      skipLf = false;
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        line(buffer.slice(start, i));
        if (c === 13) {
          if (i + 1 === buffer.length) skipLf = true;
          else if (buffer.charCodeAt(i + 1) === 10) i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    reset() {
      buffer = '';
      skipLf = false;
      first = true;
      data = [];
      event = '';
      retry = undefined;
    },
    get lastEventId() {
      return lastEventId;
    },
  };
}
