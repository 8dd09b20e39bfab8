// The layer rules of eslint.config.mjs refuse what they promise: a scratch file
// that crosses a layer fails `npm run lint`, and one that keeps to its layer passes.
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
const eslint = new ESLint({ cwd: root });

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
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

  it('lets a domain module import the contract', async () => {
    expect(await restricted('lib/catalog/scratch.ts', "import { describeIssues as x } from '@/lib/contract/describe-issues';")).toEqual([]);
  });

  it('lets lib/process-db.ts, and only it, call the global database getter', async () => {
    expect(await restricted('lib/process-db.ts', "import { getDb as x } from '@/db/client';")).toEqual([]);
    expect(await restricted('lib/service-deps.ts', "import { getDb as x } from '@/db/client';")).toHaveLength(1);
  });
});
