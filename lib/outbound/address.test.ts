// The outbound address guard on its own (no server): every IPv6 form that
// carries a loopback, private or link-local IPv4 address is refused, as the
// literal of an endpoint URL and as what a host name resolves to at send
// time (the lookup the HTTP client calls), while public addresses pass.
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const answers = vi.hoisted(() => ({ addresses: [] as Array<{ address: string; family: number }> }));
vi.mock('node:dns', async (importOriginal) => {
  const dns = await importOriginal<typeof import('node:dns')>();
  // Every name resolves to the addresses the test sets (the guard asks for all of them).
  const lookup = (_host: string, _options: unknown, callback: (err: Error | null, list: typeof answers.addresses) => void) => callback(null, answers.addresses);
  return { ...dns, default: { ...dns, lookup }, lookup };
});

const { guardedLookup, hostOf, isPrivateAddress, RefusedAddressError, refusedHost } = await import('./address');

/** What an endpoint URL's host is, as the guard reads it (the URL parser writes IPv6 in its short form). */
const hostIn = (url: string) => hostOf(new URL(url));

// Each embeds 127.0.0.1, 10.0.0.1, 192.168.1.1 or 169.254.169.254.
const INWARD_V6 = {
  'IPv4-compatible ::/96': ['::127.0.0.1', '::7f00:1', '::10.0.0.1', '::169.254.169.254', '::8.8.8.8'],
  'IPv4-mapped ::ffff:0:0/96': ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '0:0:0:0:0:ffff:192.168.1.1'],
  'SIIT ::ffff:0:0:0/96': ['::ffff:0:127.0.0.1', '::ffff:0:7f00:1', '::ffff:0:a9fe:a9fe', '0:0:0:0:ffff:0:10.0.0.1'],
  '6to4 2002::/16': ['2002:7f00:1::', '2002:7f00:0001:0000::1', '2002:a00:1::1', '2002:c0a8:101::', '2002:a9fe:a9fe::'],
  'Teredo 2001::/32': ['2001:0:4136:e378:8000:63bf:80ff:fffe', '2001::7f00:1', '2001:0:0a00:0001::'],
  'NAT64 64:ff9b::/96 and 64:ff9b:1::/48': ['64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::8.8.8.8', '64:ff9b:1::a00:1'],
};

let allowPrivate: string | undefined;
beforeEach(() => {
  allowPrivate = process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE;
  delete process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE;
});
afterEach(() => {
  if (allowPrivate === undefined) delete process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE;
  else process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE = allowPrivate;
});

describe('isPrivateAddress: IPv6 forms of IPv4 addresses', () => {
  for (const [form, ips] of Object.entries(INWARD_V6)) {
    it(`refuses ${form}`, () => {
      for (const ip of ips) expect(isPrivateAddress(ip), ip).toBe(true);
    });
  }

  it('passes the same forms of public IPv4 addresses where the form is decoded, and plain public IPv6', () => {
    for (const ip of ['::ffff:8.8.8.8', '::ffff:0:8.8.8.8', '2002:808:808::1', '2606:4700::1111', '2a00:1450:4001:80b::200e', '2001:4860:4860::8888']) expect(isPrivateAddress(ip), ip).toBe(false);
  });

  it('refuses what is not an address, and a zone does not hide a link-local address', () => {
    for (const ip of ['::1::', '1:2:3:4:5:6:7:8:9', 'fe80::1%eth0', 'not-an-ip', '::ffff:300.1.1.1']) expect(isPrivateAddress(ip), ip).toBe(true);
  });
});

describe('at registration: an endpoint URL with such a literal', () => {
  it('is refused, in the spellings the issue names and their short forms', async () => {
    for (const url of ['http://[::127.0.0.1]/', 'http://[::ffff:0:127.0.0.1]/', 'http://[2002:7f00:1::]/', 'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x', 'http://[64:ff9b::a9fe:a9fe]/latest']) {
      expect(await refusedHost(new URL(url)), `${url} (${hostIn(url)})`).toMatch(/loopback, private or link-local/);
    }
    expect(await refusedHost(new URL('https://[2606:4700::1111]/hook'))).toBeNull();
  });
});

describe('at send time: a host name that resolves to such an address', () => {
  /** An HTTP request the way the outbound worker sends it (its lookup is the guard); answers the error it ends with. */
  const send = (url: string) =>
    new Promise<Error>((resolve) => {
      const req = request(url, { method: 'POST', lookup: guardedLookup as never }, () => resolve(new Error('answered')));
      req.on('error', resolve);
      req.end('{}');
    });

  it('fails the request with RefusedAddressError before connecting, naming the address', async () => {
    for (const address of ['::7f00:1', '::ffff:0:7f00:1', '2002:7f00:1::', '2001:0:4136:e378:8000:63bf:80ff:fffe', '64:ff9b::a00:1']) {
      answers.addresses = [
        { address: '2606:4700::1111', family: 6 },
        { address, family: 6 },
      ];
      const err = await send('http://hooks.example.test:9/x');
      expect(err, address).toBeInstanceOf(RefusedAddressError);
      expect(err.message).toContain(address);
      expect(await refusedHost(new URL('http://hooks.example.test/x')), address).toContain(address);
    }
  });

  it('lets a public answer through to the connection (and OUTBOUND_WEBHOOK_ALLOW_PRIVATE=1 lets an inward one)', async () => {
    // Nothing listens on port 9: the error is the connection's (refused, unreachable), not the guard's.
    answers.addresses = [{ address: '127.0.0.1', family: 4 }];
    expect(await send('http://hooks.example.test:9/x')).toBeInstanceOf(RefusedAddressError);
    process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE = '1';
    expect(await send('http://hooks.example.test:9/x')).not.toBeInstanceOf(RefusedAddressError);
  });
});
