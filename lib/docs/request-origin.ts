// The origin a page was requested on, for commands shown to the reader
// (the walkthrough's curl lines). Display only: the Host header is the
// reader's own, and React escapes what is shown.

const SAFE_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** `http(s)://host[:port]` from the request's headers; the quickstart's default when the Host is missing or odd. */
export function requestOrigin(headers: { get(name: string): string | null }): string {
  const host = headers.get('x-forwarded-host')?.split(',')[0].trim() || headers.get('host') || '';
  const proto = headers.get('x-forwarded-proto')?.split(',')[0].trim() === 'https' ? 'https' : 'http';
  return SAFE_HOST.test(host) ? `${proto}://${host}` : 'http://localhost:3000';
}

/** The quickstart's `localhost:3000` (with or without `http://`) as `origin`. */
export function withOrigin(text: string, origin: string): string {
  return text.replace(/(?:http:\/\/)?localhost:3000/g, origin);
}
