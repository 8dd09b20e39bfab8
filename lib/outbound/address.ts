// Which addresses an outbound webhook may reach: not loopback, private,
// link-local, unspecified, carrier-grade NAT, multicast or reserved ranges
// (IPv4, IPv6 and IPv4-mapped IPv6), unless OUTBOUND_WEBHOOK_ALLOW_PRIVATE=1
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

/** True for an address an outbound webhook must not reach (unless allowed). */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return privateV4(v4Parts(ip)!);
  if (family !== 6) return true;
  const lower = ip.toLowerCase();
  const mapped = /^(?:0*:)*(?:0*:)?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower) ?? /^::(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) {
    const parts = v4Parts(mapped[1]);
    return parts === null || privateV4(parts);
  }
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hexMapped) {
    const hi = parseInt(hexMapped[1], 16);
    const lo = parseInt(hexMapped[2], 16);
    return privateV4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  if (lower === '::' || lower === '::1') return true;
  const first = parseInt(lower.split(':')[0] || '0', 16);
  return (
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xffc0) === 0xfec0 || // site-local (deprecated)
    (first & 0xff00) === 0xff00 || // multicast
    lower.startsWith('64:ff9b:') || // NAT64 of an IPv4 address: refused rather than decoded
    lower.startsWith('2001:db8:') // documentation
  );
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
