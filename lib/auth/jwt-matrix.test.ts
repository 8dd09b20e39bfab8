// The JWT matrix over real HTTP: every forged, stale or misdirected token is
// refused with 401 unauthorized on every kind of endpoint (a read, a write,
// a claim, the stream by header and by ?access_token=), and nothing is written.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { SignJWT, importPKCS8 } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mission } from '@/lib/testing/fixtures';
import { appRowCounts } from '@/lib/testing/row-counts';
import { createTestApp, issueToken, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';

let server: TestServer;
let app: TestApp;
let other: TestApp;
beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server, { missions: [mission('m1')], campaigns: [] });
  other = await createTestApp(server, { missions: [mission('theirs')], campaigns: [] });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const secret = () => new TextEncoder().encode(process.env.JWT_SECRET!);
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const nowS = () => Math.floor(Date.now() / 1000);

interface Claims {
  sub?: string;
  app?: string;
  jti?: string;
  iat?: number;
  exp?: number;
  nbf?: number;
  iat_ms?: number;
}

function claimsFor(userId: string, overrides: Claims = {}): Record<string, unknown> {
  const iat = nowS();
  const all: Record<string, unknown> = { sub: userId, app: app.appId, jti: randomUUID(), iat, exp: iat + 3600, ...overrides };
  for (const [k, v] of Object.entries(all)) if (v === undefined) delete all[k];
  return all;
}

async function hs(alg: 'HS256' | 'HS384' | 'HS512', claims: Record<string, unknown>, key: Uint8Array = secret()): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);
}

/** Every kind of endpoint a token opens; each must answer 401 unauthorized. */
async function expectRefusedEverywhere(token: string, userId: string): Promise<void> {
  const before = await appRowCounts([app.appId, other.appId]);
  const auth = { Authorization: `Bearer ${token}` };
  const calls: [string, Promise<Response>][] = [
    ['GET /v1/missions', fetch(`${server.url}/v1/missions`, { headers: auth })],
    ['GET /v1/balance', fetch(`${server.url}/v1/balance`, { headers: auth })],
    [
      'POST /v1/events',
      fetch(`${server.url}/v1/events`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ userId, name: 'play', payload: {}, timestamp: Date.now() }),
      }),
    ],
    ['POST /v1/missions/m1/claim', fetch(`${server.url}/v1/missions/m1/claim`, { method: 'POST', headers: auth })],
    ['POST /v1/auth/revoke', fetch(`${server.url}/v1/auth/revoke`, { method: 'POST', headers: auth })],
    ['GET /v1/sse/updates', fetch(`${server.url}/v1/sse/updates`, { headers: auth })],
    ['GET /v1/sse/updates?access_token=', fetch(`${server.url}/v1/sse/updates?access_token=${encodeURIComponent(token)}`)],
  ];
  for (const [what, pending] of calls) {
    const res = await pending;
    expect(res.status, what).toBe(401);
    expect(((await res.json()) as { error: string }).error, what).toBe('unauthorized');
  }
  expect(await appRowCounts([app.appId, other.appId])).toEqual(before);
}

describe('the JWT matrix: each token below is refused with 401 on every endpoint, nothing written', () => {
  it('control: a token signed as the service signs it is accepted', async () => {
    const token = await hs('HS256', claimsFor('control'));
    expect((await fetch(`${server.url}/v1/missions`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it.each(['none', 'None', 'NONE', 'nOnE'])('alg %s (unsigned)', async (alg) => {
    const claims = claimsFor('unsigned');
    await expectRefusedEverywhere(`${b64({ alg, typ: 'JWT' })}.${b64(claims)}.`, 'unsigned');
  });

  it('alg HS256 with an empty signature', async () => {
    const token = await hs('HS256', claimsFor('empty-sig'));
    await expectRefusedEverywhere(`${token.split('.').slice(0, 2).join('.')}.`, 'empty-sig');
  });

  it.each(['HS384', 'HS512'] as const)('%s signed with the right secret (algorithm not pinned)', async (alg) => {
    await expectRefusedEverywhere(await hs(alg, claimsFor(`alg-${alg}`)), `alg-${alg}`);
  });

  it('RS256 signed with a private key, and HS256 keyed with its public key (key confusion)', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const rs = await new SignJWT(claimsFor('rs256')).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(await importPKCS8(pkcs8, 'RS256'));
    await expectRefusedEverywhere(rs, 'rs256');
    const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    await expectRefusedEverywhere(await hs('HS256', claimsFor('confused'), new TextEncoder().encode(publicPem)), 'confused');
  });

  it('signed with a wrong secret', async () => {
    await expectRefusedEverywhere(await hs('HS256', claimsFor('wrong'), new TextEncoder().encode('not-the-secret-0123456789abcdef0123456789')), 'wrong');
  });

  it('expired (exp in the past), and without exp', async () => {
    await expectRefusedEverywhere(await hs('HS256', claimsFor('old', { iat: nowS() - 7200, exp: nowS() - 60 })), 'old');
    await expectRefusedEverywhere(await hs('HS256', claimsFor('no-exp', { exp: undefined })), 'no-exp');
  });

  it('not valid yet (nbf in the future)', async () => {
    await expectRefusedEverywhere(await hs('HS256', claimsFor('early', { nbf: nowS() + 600 })), 'early');
  });

  it.each(['jti', 'sub', 'app'] as const)('without the %s claim, or with it empty', async (claim) => {
    await expectRefusedEverywhere(await hs('HS256', claimsFor(`no-${claim}`, { [claim]: undefined })), `no-${claim}`);
    await expectRefusedEverywhere(await hs('HS256', { ...claimsFor(`empty-${claim}`), [claim]: '' }), `empty-${claim}`);
  });

  it('revoked (POST /v1/auth/revoke), while a fresh token of the same user works', async () => {
    const token = await issueToken(server, app, 'revoked-user');
    const revoke = await fetch(`${server.url}/v1/auth/revoke`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    expect(revoke.status).toBe(200);
    await expectRefusedEverywhere(token, 'revoked-user');
    const fresh = await issueToken(server, app, 'revoked-user');
    expect((await fetch(`${server.url}/v1/missions`, { headers: { Authorization: `Bearer ${fresh}` } })).status).toBe(200);
  });

  it('issued before the app secret was rotated (also one signed by hand with an old iat), while one issued after works', async () => {
    const rotating = await createTestApp(server, { missions: [mission('m1')], campaigns: [] });
    const before = await issueToken(server, rotating, 'rotated-user');
    const rotated = await fetch(`${server.url}/api/admin/apps/${rotating.appId}/rotate-secret`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(rotated.status).toBe(200);
    const { appSecret } = (await rotated.json()) as { appSecret: string };
    const stale = [before, await hs('HS256', { ...claimsFor('rotated-user'), app: rotating.appId, iat: nowS() - 60, iat_ms: Date.now() - 60_000 })];
    for (const token of stale) {
      for (const path of ['/v1/missions', `/v1/sse/updates?access_token=${token}`]) {
        const res = await fetch(server.url + path, { headers: path.includes('access_token') ? {} : { Authorization: `Bearer ${token}` } });
        expect(res.status, path).toBe(401);
        expect(((await res.json()) as { error: string }).error).toBe('unauthorized');
      }
    }
    const after = await issueToken(server, { ...rotating, appSecret }, 'rotated-user');
    expect((await fetch(`${server.url}/v1/missions`, { headers: { Authorization: `Bearer ${after}` } })).status).toBe(200);
  });

  it("another app's token: accepted for its own app, but it sees and changes nothing of this one", async () => {
    const token = await issueToken(server, other, 'shared-name');
    const before = await appRowCounts([app.appId]);
    const auth = { Authorization: `Bearer ${token}` };
    const mission = await fetch(`${server.url}/v1/missions/m1`, { headers: auth });
    expect(mission.status).toBe(404);
    expect(((await mission.json()) as { error: string }).error).toBe('mission_not_found');
    expect((await fetch(`${server.url}/v1/missions/m1/claim`, { method: 'POST', headers: auth })).status).toBe(404);
    // A body naming this app changes nothing: the app is the token's.
    const event = await fetch(`${server.url}/v1/events`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: 'shared-name', name: 'play', payload: {}, timestamp: Date.now(), appId: app.appId }),
    });
    expect(event.status).toBe(200);
    expect(await appRowCounts([app.appId])).toEqual(before);
  });

  it("a token whose sub is another user cannot post that user's events as this user (403 user_mismatch)", async () => {
    const token = await issueToken(server, app, 'alice-m');
    const res = await fetch(`${server.url}/v1/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: 'bob-m', name: 'play', payload: {}, timestamp: Date.now() }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toBe('user_mismatch');
  });
});
