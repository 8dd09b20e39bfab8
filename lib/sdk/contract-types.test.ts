// contract-types.ts is generated from the contract's zod schemas: it must be
// fresh, and its types must be exactly the schemas' types.
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { contractComponents, contractQueries } from '@/lib/contract/registry';
import { CONTRACT_TYPES_PATH, generateContractTypes } from '@/scripts/sdk/generate-types';
import type { ContractQueryTypes, ContractTypes } from './contract-types';

type Components = typeof contractComponents;
type Queries = typeof contractQueries;

describe('the SDK’s generated contract types', () => {
  it('are up to date with lib/contract (run npm run sdk:types when this fails)', () => {
    expect(readFileSync(CONTRACT_TYPES_PATH, 'utf8')).toBe(generateContractTypes());
  });

  it('equal the zod schemas’ output types, and the query types their optional output (checked by the type-check)', () => {
    expectTypeOf<ContractTypes>().toEqualTypeOf<{ [K in keyof Components]: z.output<Components[K]> }>();
    expectTypeOf<ContractQueryTypes>().toEqualTypeOf<{ [K in keyof Queries]: Partial<z.output<Queries[K]>> }>();
  });
});
