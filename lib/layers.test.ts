// The layer rules of eslint.config.mjs (questline/layers, scripts/eslint-layers.mjs)
// refuse what they promise: a scratch file that crosses a layer fails `npm run lint`,
// whether the import is spelled with the `@/` alias or as a relative path, and one
// that keeps to its layer passes.
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
const eslint = new ESLint({ cwd: root });

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'questline/layers').map((m) => m.message);
}

describe('layers the linter enforces', () => {
  it.each([
    ['a service importing lib/http', 'lib/services/scratch/verb.ts', "import { parseWith as x } from '@/lib/http/validate';", /never imports lib\/http/],
    ['a service calling the global database getter', 'lib/services/scratch/verb.ts', "import { getDb as x } from '@/db/client';", /from ctx/],
    ['a domain module calling the global database getter', 'lib/catalog/scratch.ts', "import { getDb as x } from '@/db/client';", /only lib\/process-db\.ts/i],
    ['the catalog loader calling the global database getter (issue 21 moved its last callers into lib/services)', 'lib/catalog/catalog.ts', "import { getDb as x } from '@/db/client';", /only lib\/process-db\.ts/i],
    ['a domain module calling the global database getter (in a folder of its own)', 'lib/apps/scratch.ts', "import { getDb as x } from '@/db/client';", /only lib\/process-db\.ts/i],
    ['a domain module importing next/*', 'lib/catalog/scratch.ts', "import { headers as x } from 'next/headers';", /next\/\*/],
    ['a domain module importing lib/http', 'lib/events/scratch.ts', "import { parseWith as x } from '@/lib/http/validate';", /never imports lib\/http/],
    ['infrastructure importing the domain', 'lib/kv/scratch.ts', "import { getCatalog as x } from '@/lib/catalog/catalog';", /imports no domain/],
    ['the update log importing the domain', 'lib/updates/scratch.ts', "import { getCatalog as x } from '@/lib/catalog/catalog';", /lib\/updates is infrastructure/],
    ['start-up calling the global database getter (it takes processDb() from lib/process-db.ts)', 'lib/boot.ts', "import { getDb as x } from '@/db/client';", /only lib\/process-db\.ts/i],
    ['staff sign-in calling the global database getter', 'lib/auth/staff-auth.ts', "import { getDb as x } from '@/db/client';", /only lib\/process-db\.ts/i],
    ['an HTTP handler calling the global database getter', 'lib/http/admin/scratch.ts', "import { getDb as x } from '@/db/client';", /never reaches the database/],
    ['an HTTP handler importing the schema', 'lib/http/v1/scratch.ts', "import { events as x } from '@/db/schema';", /never reaches the database/],
    ['the SDK importing zod', 'lib/sdk/scratch.ts', "import { z as x } from 'zod';", /only its own modules/],
    ['an SDK subfolder importing server code', 'lib/sdk/sub/scratch.ts', "import { AppError as x } from '@/lib/errors';", /only its own modules/],
  ])('refuses %s', async (_name, file, code, message) => {
    const messages = await restricted(file, code);
    expect(messages.length, `${file}: ${code}`).toBe(1);
    expect(messages[0]).toMatch(message);
  });

  // The same rules, each import spelled as a relative path (and the layers issue 38 added:
  // the HTTP layer and next/*, app/ and components/, every domain folder, infrastructure and getDb).
  it.each([
    ['a service importing lib/http', 'lib/services/scratch/verb.ts', "import { parseWith as x } from '../../http/validate';", /never imports lib\/http/],
    ['a service calling the global database getter', 'lib/services/scratch/verb.ts', "import { getDb as x } from '../../../db/client';", /from ctx/],
    ['a domain module calling the global database getter', 'lib/catalog/scratch.ts', "import { getDb as x } from '../../db/client';", /only lib\/process-db\.ts/i],
    ['a domain module importing lib/http', 'lib/events/scratch.ts', "import { parseWith as x } from '../http/validate';", /never imports lib\/http/],
    ['infrastructure importing the domain', 'lib/kv/scratch.ts', "import { getCatalog as x } from '../catalog/catalog';", /imports no domain/],
    ['infrastructure importing a domain folder the old list left out (auth)', 'lib/kv/scratch.ts', "import { STAFF_ROLES as x } from '@/lib/auth/roles';", /imports no domain/],
    ['infrastructure importing a domain folder the old list left out (outbound, relative)', 'db/scratch.ts', "import { x } from '../lib/outbound/worker';", /imports no domain/],
    ['infrastructure importing the composition root', 'lib/bus/scratch.ts', "import { x } from '../service-deps';", /composition root/],
    ['infrastructure calling the global database getter', 'lib/kv/scratch.ts', "import { getDb as x } from '@/db/client';", /only lib\/process-db\.ts/i],
    ['the update log importing the domain', 'lib/updates/scratch.ts', "import { getCatalog as x } from '../catalog/catalog';", /lib\/updates is infrastructure/],
    ['an HTTP handler importing the schema', 'lib/http/v1/scratch.ts', "import { events as x } from '../../../db/schema';", /never reaches the database/],
    ['an HTTP handler re-exporting from the database', 'lib/http/v1/scratch.ts', "export { events as x } from '../../../db/schema';\nconst x = 1;", /never reaches the database/],
    ['an HTTP handler importing the database dynamically', 'lib/http/v1/scratch.ts', "const x = await import('../../../db/client');", /never reaches the database/],
    ['an HTTP handler importing next/*', 'lib/http/v1/scratch.ts', "import { NextResponse as x } from 'next/server';", /next\/\*/],
    ['an SDK subfolder importing server code', 'lib/sdk/sub/scratch.ts', "import { AppError as x } from '../../errors';", /only its own modules/],
    ['a route file importing the schema', 'app/v1/scratch/route.ts', "import { events as x } from '../../../db/schema';", /never reach the database/],
    ['a page importing the database', 'app/admin/(console)/scratch/page.tsx', "import { getDb as x } from '@/db/client';", /never reach the database/],
    ['a component importing the schema', 'components/console/scratch.tsx', "import { events as x } from '../../db/schema';", /never reach the database/],
    ['a component importing a service', 'components/console/scratch.tsx', "import { eraseUser as x } from '@/lib/services/users/erase-user';", /server-only/],
    ['a client page importing the configuration', 'app/admin/(console)/scratch/screen.tsx', "'use client';\nimport { getConfig as x } from '../../../../lib/config';", /server-only/],
    ['a client page importing a node built-in', 'app/admin/(console)/scratch/screen.tsx', "'use client';\nimport { readFileSync as x } from 'node:fs';", /server-only/],
  ])('refuses %s (any spelling)', async (_name, file, code, message) => {
    const messages = await restricted(file, code);
    expect(messages.length, `${file}: ${code}`).toBe(1);
    expect(messages[0]).toMatch(message);
  });

  it('lets a server page import a service, and client code import server types', async () => {
    expect(await restricted('app/admin/(console)/scratch/page.tsx', "import { eraseUser as x } from '@/lib/services/users/erase-user';")).toEqual([]);
    expect(await restricted('components/console/scratch.tsx', "import type { SignedInStaff as x } from '@/lib/auth/staff-session';")).toEqual([]);
    expect(await restricted('components/console/scratch.tsx', "import { STAFF_ROLES as x } from '../../lib/auth/roles';")).toEqual([]);
  });

  it('lets a domain module import the contract', async () => {
    expect(await restricted('lib/catalog/scratch.ts', "import { describeIssues as x } from '@/lib/contract/describe-issues';")).toEqual([]);
  });

  it('lets lib/process-db.ts, and only it, call the global database getter', async () => {
    expect(await restricted('lib/process-db.ts', "import { getDb as x } from '@/db/client';")).toEqual([]);
    expect(await restricted('lib/service-deps.ts', "import { getDb as x } from '@/db/client';")).toHaveLength(1);
  });
});
