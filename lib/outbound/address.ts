// Which addresses an outbound webhook may reach: not loopback, private,
// link-local, unspecified, carrier-grade NAT, multicast or reserved ranges
// (IPv4, IPv6, and every IPv6 form that carries an IPv4 address: mapped,
// compatible, SIIT, 6to4, Teredo, NAT64), unless OUTBOUND_WEBHOOK_ALLOW_PRIVATE=1
// (self-hosting next to the game backend, tests). Checked when an endpoint is
// created (a literal address, `localhost`, and what its host name resolves to)
// and again on every send, on the address the connection actually uses (a
// DNS lookup hook), so a name that later resolves inward is refused too.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

export function privateAllowed(): boolean {
  return process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE === '1';
}

function v4Parts(ip: string): number[] | null {
  const parts = ip.split('.').map(Number);
  return parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p <= 255) ? parts : null;
}

function privateV4([a, b]: number[]): boolean {
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local (cloud metadata)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) || // IETF protocol assignments
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

/** The 16 bytes of an IPv6 address (a zone `%…` dropped; a dotted IPv4 tail allowed), or null. */
function v6Bytes(ip: string): number[] | null {
  let text = ip.split('%')[0].toLowerCase();
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4Parts(dotted[2]);
    if (!v4) return null;
    text = `${dotted[1]}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const words = (part: string) => (part === '' ? [] : part.split(':').map((w) => (/^[0-9a-f]{1,4}$/.test(w) ? parseInt(w, 16) : NaN)));
  const head = words(halves[0]);
  const tail = halves.length === 2 ? words(halves[1]) : [];
  const fill = 8 - head.length - tail.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return null;
  const all = [...head, ...Array<number>(halves.length === 2 ? fill : 0).fill(0), ...tail];
  if (all.some(Number.isNaN)) return null;
  return all.flatMap((w) => [w >> 8, w & 255]);
}

/**
 * IPv6 ranges that are, or carry, an IPv4 address: the embedded address is
 * judged as IPv4, or the whole range is refused where decoding would not be
 * worth it (no webhook receiver lives there).
 */
function privateV6(b: number[]): boolean {
  const word = (i: number) => (b[2 * i] << 8) | b[2 * i + 1];
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  // ::/96: unspecified, loopback and the deprecated IPv4-compatible form (`::127.0.0.1`): never a receiver.
  if (zero(0, 12)) return true;
  // IPv4-mapped ::ffff:0:0/96 (`::ffff:127.0.0.1`): the IPv4 address it is.
  if (zero(0, 10) && word(5) === 0xffff) return privateV4(b.slice(12));
  // IPv4-translated (SIIT) ::ffff:0:0:0/96 (`::ffff:0:127.0.0.1`): likewise.
  if (zero(0, 8) && word(4) === 0xffff && word(5) === 0) return privateV4(b.slice(12));
  // 6to4 2002::/16 (`2002:7f00:1::` is 127.0.0.1's): the IPv4 address in bits 16–47.
  if (word(0) === 0x2002) return privateV4(b.slice(2, 6));
  // NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48) and Teredo (2001::/32, which carries a
  // server's and an obfuscated client's IPv4 address): refused whole rather than decoded.
  if (word(0) === 0x64 && word(1) === 0xff9b) return true;
  if (word(0) === 0x2001 && word(1) === 0) return true;
  const first = word(0);
  return (
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xffc0) === 0xfec0 || // site-local (deprecated)
    (first & 0xff00) === 0xff00 || // multicast
    (first === 0x2001 && word(1) === 0x0db8) // documentation 2001:db8::/32
  );
}

/** True for an address an outbound webhook must not reach (unless allowed). */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip.split('%')[0]);
  if (family === 4) return privateV4(v4Parts(ip)!);
  if (family !== 6) return true;
  const bytes = v6Bytes(ip);
  return bytes === null || privateV6(bytes);
}

/** The host of a URL without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Why the URL's host is refused (null: fine). Resolves a host name; an unresolvable name is accepted here (its sends fail until it resolves). */
export async function refusedHost(url: URL): Promise<string | null> {
  if (privateAllowed()) return null;
  const host = hostOf(url).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is a loopback name`;
  if (isIP(host)) return isPrivateAddress(host) ? `${host} is a loopback, private or link-local address` : null;
  const addresses = await new Promise<LookupAddress[]>((resolve) => dnsLookup(host, { all: true }, (err, list) => resolve(err ? [] : list)));
  const inward = addresses.find((a) => isPrivateAddress(a.address));
  return inward ? `${host} resolves to ${inward.address}, a loopback, private or link-local address` : null;
}

export class RefusedAddressError extends Error {}

/**
 * A `lookup` for http.request: resolves as usual, then refuses (the request
 * fails with RefusedAddressError) when any address is private and private
 * addresses are not allowed.
 */
export function guardedLookup(
  hostname: string,
  options: { family?: number; all?: boolean },
  callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { ...options, all: true }, (err, list) => {
    if (err) return callback(err, '', 0);
    if (!privateAllowed()) {
      const inward = list.find((a) => isPrivateAddress(a.address));
      if (inward) return callback(new RefusedAddressError(`${hostname} resolves to ${inward.address}, a private address (OUTBOUND_WEBHOOK_ALLOW_PRIVATE is not set)`), '', 0);
    }
    if (options.all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
}
