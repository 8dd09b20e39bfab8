// The C# SDK's generated files (sdk/csharp/src/Generated) must be what the
// generator makes of the contract now: a stale file fails the run.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '@/lib/contract/errors';
import { contractComponents } from '@/lib/contract/registry';
import { CSHARP_ERRORS_PATH, CSHARP_MODELS_PATH, generateCsharpErrors, generateCsharpModels } from './generate-csharp';

describe('the C# SDK’s generated models and error codes', () => {
  it('are up to date with lib/contract (run npm run sdk:csharp when this fails)', () => {
    expect(readFileSync(CSHARP_MODELS_PATH, 'utf8')).toBe(generateCsharpModels());
    expect(readFileSync(CSHARP_ERRORS_PATH, 'utf8')).toBe(generateCsharpErrors());
  });

  it('have a class per component and an enum member per error code', () => {
    const models = generateCsharpModels();
    const names: Record<string, string> = { Error: 'ErrorBody', Event: 'EventRequest', SDKUpdate: 'SdkUpdate' };
    for (const name of Object.keys(contractComponents)) expect(models).toMatch(new RegExp(`public (sealed partial|static) class ${names[name] ?? name}\\b`));
    const errors = generateCsharpErrors();
    for (const code of Object.keys(ERRORS)) expect(errors).toContain(`case ${JSON.stringify(code)}: return ErrorCode.`);
  });
});
