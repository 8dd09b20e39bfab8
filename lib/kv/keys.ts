// Key-value and channel names built from tenant data. Every part is
// URI-encoded, so no part can contain the `:` separator: app "a" with user
// "b:c" and app "a:b" with user "c" can never share a key (which would leak
// one tenant's idempotent responses or revocations to another).
export function kvKey(prefix: string, ...parts: string[]): string {
  return [prefix, ...parts.map(encodeURIComponent)].join(':');
}
