// The signing examples of docs/webhooks.md, run exactly as written (taken out
// of the document, so they cannot drift from it): the Node script with `node`,
// the openssl + curl one with `bash`, against a real server.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { events } from '@/db/schema';
import { mission } from '@/lib/testing/fixtures';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';

const run = promisify(execFile);
const DOC = path.resolve(__dirname, '../../../docs/webhooks.md');

/** The fenced code block that follows `<!-- example: name -->` in the document. */
export function example(markdown: string, name: string): string {
  const match = new RegExp(`<!-- example: ${name} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``).exec(markdown);
  if (!match) throw new Error(`docs/webhooks.md has no example "${name}"`);
  return match[1];
}

let server: TestServer;
let app: TestApp;
let env: NodeJS.ProcessEnv;
const dir = mkdtempSync(path.join(tmpdir(), 'questline-webhook-docs-'));
const markdown = readFileSync(DOC, 'utf8');

beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server, {
    missions: [
      mission('played', { criteria: { eventName: 'match_played', count: 5 } }),
      mission('ranked-win', { criteria: { eventName: 'match_won', count: 1, filter: { mode: 'ranked' } } }),
    ],
  });
  env = { ...process.env, QUESTLINE_URL: server.url, APP_ID: app.appId, WEBHOOK_SECRET: app.webhookSecret };
});
afterAll(async () => {
  await server?.close();
});

async function storedNames(userId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db.select({ name: events.name }).from(events).where(and(eq(events.appId, app.appId), eq(events.userId, userId)));
  return rows.map((r) => r.name).sort();
}

describe('docs/webhooks.md examples, run as written', () => {
  it('the Node example sends a signed delivery that is applied', async () => {
    const file = path.join(dir, 'send-delivery.mjs');
    writeFileSync(file, example(markdown, 'node'));
    const { stdout } = await run(process.execPath, [file], { env });
    const [status, ...rest] = stdout.trim().split(' ');
    expect(status).toBe('200');
    const body = JSON.parse(rest.join(' ')) as { accepted: boolean; results: Array<{ missionsUpdated: string[] }> };
    expect(body.accepted).toBe(true);
    expect(body.results.map((r) => r.missionsUpdated)).toEqual([['played'], ['ranked-win']]);
    expect(await storedNames('bob')).toEqual(['match_won']);
  });

  it('the openssl + curl example sends a signed delivery that is applied', async () => {
    const file = path.join(dir, 'send-delivery.sh');
    writeFileSync(file, example(markdown, 'curl'));
    const before = (await storedNames('alice')).length;
    const { stdout } = await run('bash', ['-eu', '-o', 'pipefail', file], { env });
    const body = JSON.parse(stdout) as { accepted: boolean; results: Array<{ missionsUpdated: string[] }> };
    expect(body).toMatchObject({ accepted: true, results: [{ missionsUpdated: ['played'] }] });
    expect((await storedNames('alice')).length).toBe(before + 1);
  });

  it('a wrong secret in the same example is refused (the example really signs)', async () => {
    const file = path.join(dir, 'send-delivery-wrong.sh');
    writeFileSync(file, example(markdown, 'curl'));
    const { stdout } = await run('bash', ['-eu', '-o', 'pipefail', file], { env: { ...env, WEBHOOK_SECRET: 'whs_not-the-secret' } });
    expect(JSON.parse(stdout)).toMatchObject({ error: 'invalid_signature' });
  });
});
