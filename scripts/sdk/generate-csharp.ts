// Writes the generated part of the C# SDK (sdk/csharp/src/Generated): the
// contract's models as C# classes with their JSON reading and writing, the
// error codes as an enum and one exception class per code. It reads the same
// JSON Schemas as the OpenAPI documents (lib/contract/registry.ts) and the
// error table (lib/contract/errors.ts): no server needed. A test fails when a
// committed file is stale: run `npm run sdk:csharp`.
//   npx tsx scripts/sdk/generate-csharp.ts [--check]
// Mapping: integer → long, number → double, boolean → bool, string/enum/const
// → string, array → List<T>, a map (additionalProperties only) →
// Dictionary<string, T>, anything else untyped → object (the JSON reader's
// value: Dictionary<string, object>, List<object>, string, long, double, bool
// or null). A oneOf of objects (Reward, SDKUpdate, Notification) is one class
// with the union of the alternatives' properties (discriminator values as
// constants). Value types are nullable when optional or nullable.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERRORS } from '@/lib/contract/errors';
import { componentJsonSchemas, contractQueries, queryJsonSchemas } from '@/lib/contract/registry';

type JsonSchema = Record<string, unknown>;

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CSHARP_MODELS_PATH = path.join(ROOT, 'sdk', 'csharp', 'src', 'Generated', 'Models.g.cs');
export const CSHARP_ERRORS_PATH = path.join(ROOT, 'sdk', 'csharp', 'src', 'Generated', 'Errors.g.cs');

const HEADER = '// GENERATED from lib/contract by `npm run sdk:csharp` (scripts/sdk/generate-csharp.ts): do not edit.';
const REF_PREFIX = '#/components/schemas/';
/** C# names of components whose OpenAPI name reads oddly in C# (as the TypeScript SDK names them). */
const CS_NAMES: Record<string, string> = { Error: 'ErrorBody', Event: 'EventRequest', SDKUpdate: 'SdkUpdate' };

const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function summary(description: unknown, indent: string): string {
  return typeof description === 'string' ? `${indent}/// <summary>${xml(description)}</summary>\n` : '';
}

/** A C# type with its conversions from and to the JSON reader's values. */
interface CsType {
  name: string;
  /** A struct (long, double, bool): nullable when optional or nullable. */
  value: boolean;
  read(expr: string): string;
  write(expr: string): string;
}

const STRING: CsType = { name: 'string', value: false, read: (x) => `Json.ToStr(${x})`, write: (x) => x };
const ANY: CsType = { name: 'object', value: false, read: (x) => x, write: (x) => x };
const scalar = (name: string, method: string): CsType => ({ name, value: true, read: (x) => `Json.To${method}(${x})`, write: (x) => `(object)${x}` });
const LONG = scalar('long', 'Long');
const DOUBLE = scalar('double', 'Double');
const BOOL = scalar('bool', 'Bool');

function nullable(t: CsType): CsType {
  if (!t.value) return t;
  const method = t.name === 'long' ? 'Long' : t.name === 'double' ? 'Double' : 'Bool';
  return { name: `${t.name}?`, value: false, read: (x) => `Json.ToNullable${method}(${x})`, write: (x) => `(object)${x}` };
}

function classType(name: string): CsType {
  return { name, value: false, read: (x) => `${name}.FromJson(${x})`, write: (x) => `(${x} == null ? null : ${x}.ToJson())` };
}

function listOf(item: CsType): CsType {
  return {
    name: `List<${item.name}>`,
    value: false,
    read: (x) => `Json.ToList(${x}, v => ${item.read('v')})`,
    write: (x) => `Json.FromList(${x}, v => ${item.write('v')})`,
  };
}

function mapOf(item: CsType): CsType {
  return {
    name: `Dictionary<string, ${item.name}>`,
    value: false,
    read: (x) => `Json.ToMap(${x}, v => ${item.read('v')})`,
    write: (x) => `Json.FromMap(${x}, v => ${item.write('v')})`,
  };
}

interface Property {
  json: string;
  schemas: JsonSchema[];
  required: boolean;
  description?: string;
}

class Generator {
  private readonly classes: string[] = [];
  private readonly emitted = new Set<string>();

  constructor(private readonly components: Record<string, JsonSchema>) {}

  output(): string {
    return this.classes.join('\n');
  }

  component(name: string): void {
    const schema = this.components[name];
    const csName = CS_NAMES[name] ?? name;
    if (Array.isArray(schema.enum) && schema.type === 'string') {
      const lines = (schema.enum as string[]).map((v) => `    public const string ${pascal(v)} = ${JSON.stringify(v)};`);
      this.classes.push(`${summary(schema.description ?? `The values of ${name}.`, '')}public static class ${csName}\n{\n${lines.join('\n')}\n}\n`);
      return;
    }
    this.classOf(csName, [schema], schema.description);
  }

  private resolve(schema: JsonSchema): JsonSchema {
    if (typeof schema.$ref === 'string') {
      if (!schema.$ref.startsWith(REF_PREFIX)) throw new Error(`unsupported $ref ${schema.$ref}`);
      return this.resolve(this.components[schema.$ref.slice(REF_PREFIX.length)]);
    }
    return schema;
  }

  /** The alternatives of an object schema (itself, or the members of its oneOf/anyOf), resolved. */
  private objectAlternatives(schema: JsonSchema): JsonSchema[] | null {
    const s = this.resolve(schema);
    const alternatives = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
    if (alternatives) {
      const all = alternatives.map((a) => this.objectAlternatives(a));
      return all.every((a) => a !== null) ? all.flat() : null;
    }
    return s.type === 'object' && s.properties ? [s] : null;
  }

  /** Removes a `null` alternative: [schema without it, whether it was there]. */
  private nonNull(schema: JsonSchema): [JsonSchema, boolean] {
    const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    if (alternatives) {
      const rest = alternatives.filter((a) => a.type !== 'null');
      if (rest.length < alternatives.length) return [rest.length === 1 ? rest[0] : { ...schema, anyOf: rest, oneOf: undefined }, true];
    }
    if (Array.isArray(schema.type) && schema.type.includes('null')) {
      const rest = (schema.type as string[]).filter((t) => t !== 'null');
      return [{ ...schema, type: rest.length === 1 ? rest[0] : rest }, true];
    }
    return [schema, false];
  }

  /** The C# type of a property whose alternatives (from one or several union members) are `schemas`. */
  private typeOf(owner: string, prop: string, schemas: JsonSchema[]): { type: CsType; nullable: boolean } {
    let isNull = false;
    const stripped = schemas.map((s) => {
      const [rest, n] = this.nonNull(s);
      isNull ||= n;
      return rest;
    });
    // The same component everywhere: its class.
    const refs = new Set(stripped.map((s) => (typeof s.$ref === 'string' ? s.$ref : null)));
    if (refs.size === 1 && !refs.has(null)) {
      const ref = [...refs][0]!.slice(REF_PREFIX.length);
      const target = this.components[ref];
      if (target.type === 'string') return { type: STRING, nullable: isNull };
      return { type: classType(CS_NAMES[ref] ?? ref), nullable: isNull };
    }
    const resolved = stripped.map((s) => this.resolve(s));
    const kinds = new Set(resolved.map((s) => this.kind(s)));
    if (kinds.size === 1) {
      const kind = [...kinds][0];
      switch (kind) {
        case 'string':
          return { type: STRING, nullable: isNull };
        case 'integer':
          return { type: LONG, nullable: isNull };
        case 'number':
          return { type: DOUBLE, nullable: isNull };
        case 'boolean':
          return { type: BOOL, nullable: isNull };
        case 'array': {
          const item = this.typeOf(owner, `${prop}Item`, resolved.map((s) => (s.items ?? {}) as JsonSchema));
          return { type: listOf(item.nullable ? nullable(item.type) : item.type), nullable: isNull };
        }
        case 'map': {
          const item = this.typeOf(owner, `${prop}Value`, resolved.map((s) => s.additionalProperties as JsonSchema));
          return { type: mapOf(item.nullable ? nullable(item.type) : item.type), nullable: isNull };
        }
        case 'object': {
          const name = owner + pascal(prop);
          this.classOf(name, stripped, undefined);
          return { type: classType(name), nullable: isNull };
        }
      }
    }
    // integer and number together: a number.
    if ([...kinds].every((k) => k === 'integer' || k === 'number')) return { type: DOUBLE, nullable: isNull };
    return { type: ANY, nullable: true };
  }

  private kind(s: JsonSchema): string {
    if (this.objectAlternatives(s)) return 'object';
    if (s.oneOf || s.anyOf) {
      const kinds = new Set(((s.oneOf ?? s.anyOf) as JsonSchema[]).map((a) => this.kind(this.resolve(a))));
      return kinds.size === 1 ? [...kinds][0] : 'any';
    }
    if (typeof s.type === 'string') {
      if (s.type === 'object') return s.additionalProperties && !s.properties ? 'map' : 'any';
      return s.type;
    }
    return 'any';
  }

  /** A class for an object schema or a union of them (`schemas`: where it appears). */
  private classOf(name: string, schemas: JsonSchema[], description: unknown): void {
    if (this.emitted.has(name)) return;
    this.emitted.add(name);
    const alternatives = schemas.flatMap((s) => this.objectAlternatives(s) ?? []);
    const properties = new Map<string, Property>();
    for (const alt of alternatives) {
      const required = new Set((alt.required ?? []) as string[]);
      for (const [json, schema] of Object.entries((alt.properties ?? {}) as Record<string, JsonSchema>)) {
        const p = properties.get(json) ?? { json, schemas: [], required: true, description: undefined };
        p.schemas.push(schema);
        p.required &&= required.has(json);
        p.description ??= typeof schema.description === 'string' ? schema.description : undefined;
        properties.set(json, p);
      }
    }
    for (const p of properties.values()) if (p.schemas.length < alternatives.length) p.required = false;
    const extra = alternatives.some((a) => a.additionalProperties !== undefined && a.additionalProperties !== false);

    const decls: string[] = [];
    const reads: string[] = [];
    const writes: string[] = [];
    // Discriminators: a property that is a constant in every alternative.
    for (const p of properties.values()) {
      const consts = p.schemas.map((s) => s.const);
      if (alternatives.length > 1 && consts.every((c) => typeof c === 'string')) {
        for (const c of [...new Set(consts as string[])]) decls.push(`    public const string ${pascal(p.json)}${pascal(c)} = ${JSON.stringify(c)};`);
      }
    }
    if (decls.length > 0) decls.push('');
    for (const p of properties.values()) {
      const member = pascal(p.json) === name ? `${pascal(p.json)}Value` : pascal(p.json);
      const { type, nullable: isNull } = this.typeOf(name, p.json, p.schemas);
      const t = isNull || !p.required ? nullable(type) : type;
      decls.push(`${summary(p.description, '    ')}    public ${t.name} ${member} { get; set; }`);
      reads.push(`        r.${member} = ${t.read(`Json.Get(o, ${JSON.stringify(p.json)})`)};`);
      const write = `o[${JSON.stringify(p.json)}] = ${t.write(member)};`;
      writes.push(p.required ? `        ${write}` : `        if (${member} != null) ${write}`);
    }
    if (extra) {
      decls.push('    /// <summary>Properties the contract does not name.</summary>');
      decls.push('    public Dictionary<string, object> Extra { get; set; }');
      const known = [...properties.keys()].map((k) => JSON.stringify(k)).join(', ');
      reads.push(`        r.Extra = Json.Rest(o, new[] { ${known} });`);
      writes.push('        if (Extra != null) foreach (var kv in Extra) if (!o.ContainsKey(kv.Key)) o[kv.Key] = kv.Value;');
    }
    this.classes.push(
      `${summary(description, '')}public sealed partial class ${name}\n{\n${decls.join('\n')}\n\n` +
        `    /// <summary>Reads a value of the JSON reader (null gives null).</summary>\n` +
        `    public static ${name} FromJson(object json)\n    {\n        if (json == null) return null;\n` +
        `        var o = Json.AsObject(json, ${JSON.stringify(name)});\n        var r = new ${name}();\n${reads.join('\n')}\n        return r;\n    }\n\n` +
        `    /// <summary>The JSON object (for Json.Write).</summary>\n` +
        `    public Dictionary<string, object> ToJson()\n    {\n        var o = new Dictionary<string, object>();\n${writes.join('\n')}\n        return o;\n    }\n}\n`,
    );
  }

  /** A query-string class: every field optional. */
  query(name: string, fields: Record<string, { schema: Record<string, unknown>; description?: string }>): void {
    const decls: string[] = [];
    const adds: string[] = [];
    for (const [json, { schema, description }] of Object.entries(fields)) {
      const { type } = this.typeOf(name, json, [schema]);
      const t = nullable(type);
      const member = pascal(json);
      decls.push(`${summary(description, '    ')}    public ${t.name} ${member} { get; set; }`);
      const text = t.name === 'string' ? member : `Json.QueryValue(${member})`;
      adds.push(`        if (${member} != null) q.Add(new KeyValuePair<string, string>(${JSON.stringify(json)}, ${text}));`);
    }
    this.classes.push(
      `/// <summary>Query parameters (every one optional).</summary>\npublic sealed partial class ${name}\n{\n${decls.join('\n')}\n\n` +
        `    /// <summary>The parameters that are set, as query-string pairs.</summary>\n` +
        `    public List<KeyValuePair<string, string>> ToQuery()\n    {\n        var q = new List<KeyValuePair<string, string>>();\n${adds.join('\n')}\n        return q;\n    }\n}\n`,
    );
  }
}

export function generateCsharpModels(): string {
  const components = componentJsonSchemas() as Record<string, JsonSchema>;
  const g = new Generator(components);
  for (const name of Object.keys(components)) g.component(name);
  for (const [name, schema] of Object.entries(contractQueries)) g.query(name, queryJsonSchemas(schema));
  const body = g
    .output()
    .split('\n')
    .map((line) => (line === '' ? line : `    ${line}`))
    .join('\n');
  return `${HEADER}\n// The contract's shapes (the components of GET /v1/openapi.json) as C# classes.\n#pragma warning disable 1591\nusing System.Collections.Generic;\n\nnamespace Questline\n{\n${body.trimEnd()}\n}\n`;
}

/** Exception class names as the TypeScript SDK names its error classes (…Error there, …Exception here). */
const EXCEPTION_NAMES: Record<string, string> = { internal_error: 'InternalServerException', unavailable: 'ServiceUnavailableException', too_many_streams: 'RateLimitedException' };
const exceptionName = (code: string) => EXCEPTION_NAMES[code] ?? `${pascal(code).replace(/Error$/, '')}Exception`;
/** The generic code of each status: the parent class of that status's other codes (401 and 429 have none: their codes are distinct problems). */
const GENERIC = ['validation_error', 'forbidden', 'not_found', 'method_not_allowed', 'conflict', 'payload_too_large', 'idempotency_key_reused', 'internal_error', 'unavailable'];

export function generateCsharpErrors(): string {
  const codes = Object.keys(ERRORS) as (keyof typeof ERRORS)[];
  const genericOf = new Map(GENERIC.map((code) => [ERRORS[code as keyof typeof ERRORS].status as number, code]));
  const enumLines = codes.map((code) => `${summary(`${ERRORS[code].status} <c>${code}</c>: ${ERRORS[code].description}`, '        ')}        ${pascal(code)},`);
  const parse = codes.map((code) => `                case ${JSON.stringify(code)}: return ErrorCode.${pascal(code)};`);
  const wire = codes.map((code) => `                case ErrorCode.${pascal(code)}: return ${JSON.stringify(code)};`);
  const status = codes.map((code) => `                case ErrorCode.${pascal(code)}: return ${ERRORS[code].status};`);
  const create = codes
    .filter((code) => code !== 'rate_limited' && code !== 'too_many_streams')
    .map((code) => `                case ErrorCode.${pascal(code)}: return new ${exceptionName(code)}(status, code, message, requestId);`);
  const byStatus = [...genericOf.entries()].map(([s, code]) => `                case ${s}: return new ${exceptionName(code)}(status, code, message, requestId);`);
  const classes = codes
    .filter((code) => code !== 'too_many_streams' && code !== 'rate_limited')
    .map((code) => {
      const generic = genericOf.get(ERRORS[code].status);
      const parent = generic && generic !== code ? exceptionName(generic) : 'QuestlineException';
      const cls = exceptionName(code);
      return (
        `${summary(`${ERRORS[code].status} <c>${code}</c>: ${ERRORS[code].description}`, '    ')}` +
        `    public class ${cls} : ${parent}\n    {\n        public ${cls}(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }\n    }\n`
      );
    });
  return `${HEADER}
// The error codes of the contract (lib/contract/errors.ts, the error table of the OpenAPI documents).
#pragma warning disable 1591
namespace Questline
{
    /// <summary>Every error code of the API; Unknown for a code this SDK does not know (a newer service).</summary>
    public enum ErrorCode
    {
        Unknown = 0,
${enumLines.join('\n')}
    }

    /// <summary>The wire names and HTTP statuses of the error codes.</summary>
    public static class ErrorCodes
    {
        /// <summary>The code of a body's <c>error</c> field (Unknown when not in the contract).</summary>
        public static ErrorCode Parse(string code)
        {
            switch (code)
            {
${parse.join('\n')}
                default: return ErrorCode.Unknown;
            }
        }

        /// <summary>The wire name of a code (null for Unknown).</summary>
        public static string Wire(ErrorCode code)
        {
            switch (code)
            {
${wire.join('\n')}
                default: return null;
            }
        }

        /// <summary>The HTTP status the API answers with a code (0 for Unknown).</summary>
        public static int Status(ErrorCode code)
        {
            switch (code)
            {
${status.join('\n')}
                default: return 0;
            }
        }

        /// <summary>The typed exception of an error answer: by code, else the generic one of its status.</summary>
        internal static QuestlineException Create(int status, string code, string message, string requestId)
        {
            switch (Parse(code))
            {
${create.join('\n')}
            }
            switch (status)
            {
${byStatus.join('\n')}
                case 502:
                case 504: return new ServiceUnavailableException(status, code, message, requestId);
                default: return new QuestlineException(status, code, message, requestId);
            }
        }
    }

${classes.join('\n')}}
`;
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const files: [string, string][] = [
    [CSHARP_MODELS_PATH, generateCsharpModels()],
    [CSHARP_ERRORS_PATH, generateCsharpErrors()],
  ];
  const check = process.argv.includes('--check');
  let stale = false;
  for (const [file, fresh] of files) {
    const rel = path.relative(process.cwd(), file);
    if (check) {
      let current = '';
      try {
        current = readFileSync(file, 'utf8');
      } catch {
        // missing: stale
      }
      if (current !== fresh) {
        console.error(`${rel} is stale: run npm run sdk:csharp`);
        stale = true;
      }
    } else {
      writeFileSync(file, fresh);
      console.log(`wrote ${rel}`);
    }
  }
  if (stale) process.exit(1);
}
