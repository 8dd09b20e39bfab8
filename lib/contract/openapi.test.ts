// The generation rules of both OpenAPI documents (lib/contract/openapi.ts):
// an operation without what generators and tools need is refused, and every
// operation gets the common headers and error answers without asking.
import { describe, expect, it } from 'vitest';
import { completeDocument, operation, type DocumentRules, type OperationSpec } from './openapi';

const rules: DocumentRules = { errorSchema: { $ref: '#/components/schemas/Error' }, security: [{ bearerAuth: [] }], authErrors: ['unauthorized'] };
const spec: OperationSpec = {
  operationId: 'postThing',
  tags: ['things'],
  summary: 'Post a thing',
  description: 'Posts a thing.',
  requestBody: { required: true, schema: { type: 'object' }, example: { a: 1 } },
  success: { '200': { description: 'Done', json: { schema: { type: 'object' }, example: { ok: true } } } },
  errors: ['rate_limited'],
  rateLimited: true,
  idempotent: true,
};

describe('operation()', () => {
  it.each([
    ['operationId', { operationId: '' }],
    ['operationId', { operationId: 'Post thing' }],
    ['tags', { tags: [] as unknown as OperationSpec['tags'] }],
    ['summary', { summary: ' ' }],
    ['description', { description: '' }],
    ['example of its request body', { requestBody: { required: true, schema: {}, example: undefined } }],
    ['example of its 200 answer', { success: { '200': { description: 'Done', json: { schema: {}, example: undefined } } } }],
    ['example of its 200 stream', { success: { '200': { description: 'Done', stream: { schema: {}, example: '' } } } }],
    ['success answers', { success: {} }],
  ])('refuses an operation without its %s', (what, change) => {
    expect(() => operation({ ...spec, ...change } as OperationSpec, rules)).toThrow(what);
  });

  it('adds X-Request-Id, 400/413/500/503, 401, Retry-After, RateLimit-* and X-Idempotent-Replay', () => {
    const op = operation(spec, rules) as { security: unknown; responses: Record<string, { headers: Record<string, unknown>; content?: Record<string, { examples?: Record<string, unknown> }> }> };
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '413', '429', '500', '503']);
    for (const answer of Object.values(op.responses)) expect(answer.headers).toHaveProperty(['X-Request-Id']);
    expect(Object.keys(op.responses['200'].headers)).toEqual(['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Idempotent-Replay']);
    expect(op.responses['429'].headers).toHaveProperty(['Retry-After']);
    expect(op.responses['429'].content?.['application/json'].examples?.rate_limited).toMatchObject({ value: { error: 'rate_limited', retryAfterMs: expect.any(Number) } });
    expect(Object.keys(op.responses['400'].content?.['application/json'].examples ?? {})).toEqual(['validation_error']);
    expect(op.security).toEqual([{ bearerAuth: [] }]);
    const open = operation({ ...spec, public: true, requestBody: undefined }, rules) as { security: unknown; responses: Record<string, unknown> };
    expect(open.security).toEqual([]);
    expect(Object.keys(open.responses)).not.toContain('401');
    expect(Object.keys(open.responses)).not.toContain('413');
  });
});

describe('completeDocument()', () => {
  const doc = (ops: Record<string, Record<string, Record<string, unknown>>>, tags = [{ name: 'things', description: 'Things' }]) => ({ tags, paths: ops, components: {} });
  it('refuses a duplicate operationId, an undeclared tag or an undeclared path parameter', () => {
    const op = operation(spec, rules);
    expect(() => completeDocument(doc({ '/a': { post: op }, '/b': { post: op } }))).toThrow('used twice');
    expect(() => completeDocument(doc({ '/a': { post: op } }, []))).toThrow('not declared');
    expect(() => completeDocument(doc({ '/a/{id}': { post: op } }))).toThrow('path parameter id');
  });
  it('declares only the response headers its operations use', () => {
    const plain = operation({ ...spec, rateLimited: false, idempotent: false, errors: [] }, rules);
    expect(Object.keys((completeDocument(doc({ '/a': { post: plain } })).components as { headers: object }).headers)).toEqual(['X-Request-Id']);
  });
});
