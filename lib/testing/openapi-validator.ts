// A validating layer between a test and the server, as a validating proxy
// would be: every request is checked against the OpenAPI document before it is
// sent (operation, path, query and header parameters, body) and every
// response after (status declared, media type declared, body against its
// schema, the declared headers present and valid, no undeclared API header).
// The first mismatch throws OpenApiMismatch, naming the operation and what
// differs. Requests a test sends wrong on purpose (`invalid: true`) must fail
// the request check instead, and still get a declared answer.
// Not checked: security requirements (a test sends unauthenticated requests
// on purpose; their 401 is checked as an answer like any other).
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: Json;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, { headers?: Record<string, { $ref?: string; required?: boolean; schema?: Json }>; content?: Record<string, { schema: Json }> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; headers?: Record<string, { schema: Json }> };
}

class OpenApiMismatch extends Error {}

/** The headers the API itself sets; one of these on a response must be declared there. */
const API_HEADERS = ['x-request-id', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-idempotent-replay'];

let documents = 0;

export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly base: string;
  private readonly compiled = new Map<unknown, ValidateFunction>();
  /** operationIds seen in a checked answer (coverage). */
  readonly answered = new Set<string>();

  constructor(private readonly doc: OpenApiDocument) {
    documents += 1;
    this.base = `https://openapi.test/${documents}/doc.json`;
    // The components as one schema resource, so `#/components/schemas/X` refs resolve inside it.
    this.ajv.addKeyword('components');
    this.ajv.addSchema({ $id: this.base, components: { schemas: doc.components.schemas } }, this.base);
  }

  private validator(schema: unknown): ValidateFunction {
    let fn = this.compiled.get(schema);
    if (!fn) {
      const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${this.base}#/components/schemas/`)) as Json;
      fn = this.ajv.compile(rebased);
      this.compiled.set(schema, fn);
    }
    return fn;
  }

  private check(schema: unknown, value: unknown, what: string): string | null {
    const validate = this.validator(schema);
    return validate(value) ? null : `${what}: ${this.ajv.errorsText(validate.errors, { dataVar: what })} (value ${JSON.stringify(value)?.slice(0, 300)})`;
  }

  /** The documented operation of a method and a URL path, with its decoded path parameters. */
  operation(method: string, pathname: string): { path: string; op: Operation; params: Record<string, string> } {
    const parts = pathname.split('/');
    for (const [path, methods] of Object.entries(this.doc.paths)) {
      const op = methods[method.toLowerCase()];
      const pattern = path.split('/');
      if (!op || pattern.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const match = pattern.every((segment, i) => {
        const name = /^\{(\w+)\}$/.exec(segment)?.[1];
        if (!name) return segment === parts[i];
        if (!parts[i]) return false;
        try {
          params[name] = decodeURIComponent(parts[i]);
        } catch {
          params[name] = parts[i]; // checked against the parameter's schema below (and the server refuses it)
        }
        return true;
      });
      if (match) return { path, op, params };
    }
    throw new OpenApiMismatch(`${method} ${pathname}: no documented operation`);
  }

  /** A query or header value as the parameter's schema types it. */
  private coerce(value: string, schema: Json): unknown {
    const types = ([] as unknown[]).concat(schema.type ?? []);
    if ((types.includes('integer') || types.includes('number')) && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
    if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
    return value;
  }

  /** The request's mismatches with the document (empty when it conforms). */
  requestProblems(method: string, url: URL, headers: Headers, body: string | undefined): { operationId: string; problems: string[] } {
    const { op, params } = this.operation(method, url.pathname);
    const problems: string[] = [];
    const declared = op.parameters ?? [];
    for (const p of declared) {
      const raw = p.in === 'path' ? params[p.name] : p.in === 'query' ? url.searchParams.get(p.name) : p.in === 'header' ? headers.get(p.name) : null;
      if (raw === null || raw === undefined) {
        if (p.required) problems.push(`${p.in} parameter ${p.name} is required`);
        continue;
      }
      const problem = this.check(p.schema, p.in === 'path' ? raw : this.coerce(raw, p.schema), `${p.in} parameter ${p.name}`);
      if (problem) problems.push(problem);
    }
    if (url.pathname.split('/').some((segment) => !decodes(segment))) problems.push(`path ${url.pathname}: a percent-escape does not decode`);
    for (const name of new Set(url.searchParams.keys())) {
      if (!declared.some((p) => p.in === 'query' && p.name === name)) problems.push(`query parameter ${name} is not documented`);
    }
    if (body !== undefined && body !== '') {
      if (!op.requestBody) problems.push('a body is sent but none is documented');
      else {
        const type = (headers.get('content-type') ?? '').split(';')[0].trim();
        const media = op.requestBody.content[type];
        if (!media) problems.push(`body media type ${type || '(none)'} is not documented`);
        else {
          let value: unknown;
          try {
            value = JSON.parse(body);
          } catch {
            problems.push('the body is not JSON');
          }
          if (value !== undefined) {
            const problem = this.check(media.schema, value, 'body');
            if (problem) problems.push(problem);
          }
        }
      }
    } else if (op.requestBody?.required) problems.push('the body is required');
    return { operationId: op.operationId, problems };
  }

  /** Throws on the first way the answer differs from the document. `body` is the text read (a stream's first chunk). */
  checkResponse(method: string, url: URL, status: number, headers: Headers, body: string): void {
    const { op } = this.operation(method, url.pathname);
    const where = `${op.operationId} (${method} ${url.pathname}) answered ${status}`;
    const answer = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
    if (!answer) throw new OpenApiMismatch(`${where}: status not documented (documented: ${Object.keys(op.responses).join(', ')})`);
    // Headers: the required ones present, every present one valid, no undeclared API header.
    const declared = new Map(Object.entries(answer.headers ?? {}).map(([name, h]) => [name.toLowerCase(), this.resolveHeader(h)]));
    for (const [name, header] of declared) {
      const value = headers.get(name);
      if (value === null) {
        if (header.required) throw new OpenApiMismatch(`${where}: header ${name} is required`);
        continue;
      }
      const problem = header.schema ? this.check(header.schema, value, `header ${name}`) : null;
      if (problem) throw new OpenApiMismatch(`${where}: ${problem}`);
    }
    for (const name of API_HEADERS) {
      if (headers.has(name) && !declared.has(name)) throw new OpenApiMismatch(`${where}: header ${name} is sent but not documented`);
    }
    // Body: the media type documented, a JSON body valid against its schema.
    const type = (headers.get('content-type') ?? '').split(';')[0].trim();
    if (!answer.content) {
      if (body !== '') throw new OpenApiMismatch(`${where}: a body (${type}) but none is documented`);
    } else {
      const media = answer.content[type];
      if (!media) throw new OpenApiMismatch(`${where}: media type ${type || '(none)'} is not documented (documented: ${Object.keys(answer.content).join(', ')})`);
      if (type === 'application/json') {
        const problem = this.check(media.schema, JSON.parse(body) as unknown, 'body');
        if (problem) throw new OpenApiMismatch(`${where}: ${problem}`);
      }
      if (type === 'text/event-stream') {
        const dataSchema = (media.schema as { 'x-sse-data'?: unknown })['x-sse-data'];
        for (const line of body.split('\n').filter((l) => l.startsWith('data: '))) {
          const problem = dataSchema ? this.check(dataSchema, JSON.parse(line.slice(6)) as unknown, 'data') : null;
          if (problem) throw new OpenApiMismatch(`${where}: ${problem}`);
        }
      }
    }
    this.answered.add(op.operationId);
  }

  /** Every operationId of the document. */
  operationIds(): string[] {
    return Object.values(this.doc.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
  }

  private resolveHeader(header: { $ref?: string; required?: boolean; schema?: Json }): { required?: boolean; schema?: Json } {
    if (!header.$ref) return header;
    const name = header.$ref.replace('#/components/headers/', '');
    const resolved = this.doc.components.headers?.[name];
    if (!resolved) throw new OpenApiMismatch(`header ${header.$ref} does not resolve`);
    return resolved;
  }
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

export interface CheckedInit {
  method?: string;
  headers?: Record<string, string>;
  /** JSON-encoded unless a string. */
  body?: unknown;
  /** The request is wrong on purpose: it must NOT conform to the document (and its answer must still be documented). */
  invalid?: boolean;
  /** A stream: read the first chunk only, then cancel. */
  stream?: boolean;
}

export interface CheckedResponse {
  status: number;
  headers: Headers;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

/**
 * fetch() through the validators: the request is checked against the
 * document whose paths contain it, sent, and its answer checked.
 */
export function validatingFetch(baseUrl: string, validators: OpenApiValidator[]) {
  return async (method: string, target: string, init: Omit<CheckedInit, 'method'> = {}): Promise<CheckedResponse> => {
    // The raw target (a malformed escape must reach the server as written).
    const url = new URL(baseUrl + target);
    const pathname = target.split('?')[0];
    const headers = new Headers(init.headers);
    const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    if (body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
    const validator = validators.find((v) => {
      try {
        v.operation(method, pathname);
        return true;
      } catch {
        return false;
      }
    });
    if (!validator) throw new OpenApiMismatch(`${method} ${pathname}: no documented operation`);
    const { operationId, problems } = validator.requestProblems(method, url, headers, body);
    if (init.invalid && problems.length === 0) throw new OpenApiMismatch(`${operationId} (${method} ${target}): sent as invalid, but the document accepts it`);
    if (!init.invalid && problems.length > 0) throw new OpenApiMismatch(`${operationId} (${method} ${target}) request: ${problems[0]}`);
    const res = await fetch(`${baseUrl}${target}`, { method, headers, body });
    let text = '';
    if (init.stream && res.status === 200 && res.body) {
      // Up to the first whole data frame, then cancel.
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      while (!/^data: .*\n\n/m.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      await reader.cancel().catch(() => undefined);
    } else text = await res.text();
    validator.checkResponse(method, url, res.status, res.headers, text);
    return { status: res.status, headers: res.headers, text, json: <T>() => JSON.parse(text) as T };
  };
}
