// Writes lib/sdk/contract-types.ts: the contract's shapes (lib/contract) as
// plain TypeScript, so the SDK and its package need neither zod nor server
// code. It goes through the same JSON Schemas as the OpenAPI document. A test
// fails when the committed file is stale: run `npm run sdk:types`.
//   npx tsx scripts/sdk/generate-types.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_STATUS } from '@/lib/contract/errors';
import { componentJsonSchemas, contractQueries, queryJsonSchemas } from '@/lib/contract/registry';

type JsonSchema = Record<string, unknown>;

export const CONTRACT_TYPES_PATH = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'lib', 'sdk', 'contract-types.ts');

const REF_PREFIX = '#/components/schemas/';
/** TypeScript names of components whose OpenAPI name is a global type (Error, DOM's Event) or reads oddly. */
const TS_NAMES: Record<string, string> = { Error: 'ErrorBody', Event: 'EventRequest', SDKUpdate: 'SdkUpdate' };
const tsName = (component: string) => TS_NAMES[component] ?? component;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function docComment(description: unknown, indent: string): string {
  return typeof description === 'string' ? `${indent}/** ${description.replace(/\*\//g, '*\\/')} */\n` : '';
}

function union(members: string[]): string {
  return [...new Set(members)].join(' | ');
}

/** The TypeScript type of a JSON Schema of the subset zod emits for the contract. */
function tsType(schema: JsonSchema, indent: string): string {
  if (typeof schema.$ref === 'string') {
    if (!schema.$ref.startsWith(REF_PREFIX)) throw new Error(`unsupported $ref ${schema.$ref}`);
    return tsName(schema.$ref.slice(REF_PREFIX.length));
  }
  const alternatives = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (alternatives) return union(alternatives.map((s) => wrapUnion(tsType(s, indent))));
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map((v) => JSON.stringify(v)));
  if (Array.isArray(schema.type)) return union(schema.type.map((t: string) => tsType({ ...schema, type: t }, indent)));
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${wrapUnion(tsType((schema.items ?? {}) as JsonSchema, indent), true)}[]`;
    case 'object':
      return objectType(schema, indent);
    case undefined:
      if (Object.keys(schema).every((k) => k === 'description' || k === 'default')) return 'unknown';
  }
  throw new Error(`unsupported JSON Schema: ${JSON.stringify(schema)}`);
}

function wrapUnion(type: string, always = false): string {
  return (always || type.includes('\n')) && type.includes(' | ') ? `(${type})` : type;
}

function objectType(schema: JsonSchema, indent: string): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const inner = `${indent}  `;
  const lines = Object.entries(properties).map(([name, prop]) => {
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    return `${docComment(prop.description, inner)}${inner}${key}${required.has(name) ? '' : '?'}: ${tsType(prop, inner)};`;
  });
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) lines.push(`${inner}[key: string]: ${extra === true ? 'unknown' : tsType(extra as JsonSchema, inner)};`);
  return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('\n')}\n${indent}}`;
}

function declaration(name: string, schema: JsonSchema): string {
  return `${docComment(schema.description, '')}export type ${name} = ${tsType(schema, '')};\n`;
}

export function generateContractTypes(): string {
  const out = [
    '// GENERATED from lib/contract by `npm run sdk:types` (scripts/sdk/generate-types.ts): do not edit.',
    '// The contract\'s shapes as plain TypeScript: the SDK needs neither zod nor server code.',
    '',
    '/** The HTTP status of each error code the API answers (`{ error: code, message? }`). */',
    `export const ERROR_STATUS = ${JSON.stringify(ERROR_STATUS, null, 2).replace(/"(\w+)":/g, '$1:')} as const;`,
    'export type ErrorCode = keyof typeof ERROR_STATUS;',
    '',
  ];
  const components = componentJsonSchemas();
  for (const [name, schema] of Object.entries(components)) out.push(declaration(tsName(name), schema));
  out.push('// Query strings (every parameter optional).\n');
  for (const [name, schema] of Object.entries(contractQueries)) {
    const fields = queryJsonSchemas(schema);
    const properties = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { ...v.schema, description: v.description }]));
    out.push(declaration(name, { type: 'object', properties }));
  }
  out.push('/** Every generated shape by name (the test that ties these types to the zod schemas reads it). */');
  out.push(`export interface ContractTypes {\n${Object.keys(components).map((n) => `  ${n}: ${tsName(n)};`).join('\n')}\n}`);
  out.push(`export interface ContractQueryTypes {\n${Object.keys(contractQueries).map((n) => `  ${n}: ${n};`).join('\n')}\n}\n`);
  return out.join('\n');
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const fresh = generateContractTypes();
  if (process.argv.includes('--check')) {
    const current = readFileSync(CONTRACT_TYPES_PATH, 'utf8');
    if (current !== fresh) {
      console.error(`${path.relative(process.cwd(), CONTRACT_TYPES_PATH)} is stale: run npm run sdk:types`);
      process.exit(1);
    }
  } else {
    writeFileSync(CONTRACT_TYPES_PATH, fresh);
    console.log(`wrote ${path.relative(process.cwd(), CONTRACT_TYPES_PATH)}`);
  }
}
