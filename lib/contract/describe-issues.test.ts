// The one notation of a field's path in validation messages: keys joined
// with `.`, array indexes in brackets (`events[1].name`), from zod's issues
// and from the body's own checks (lib/http/body.ts) alike.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssues, fieldPath } from './describe-issues';

describe('describeIssues and fieldPath', () => {
  const schema = z.object({ events: z.array(z.object({ name: z.string(), tags: z.array(z.string()) })) });

  it('writes array indexes in brackets, keys after a dot', () => {
    const result = schema.safeParse({ events: [{ name: 'a', tags: [] }, { name: 1, tags: [] }] });
    expect(result.success).toBe(false);
    expect(describeIssues(result.error!)).toMatch(/^events\[1\]\.name: /);
    const nested = schema.safeParse({ events: [{ name: 'a', tags: ['x', 2] }] });
    expect(describeIssues(nested.error!)).toMatch(/^events\[0\]\.tags\[1\]: /);
  });

  it('continues a prefix in the same notation; an empty path is the body', () => {
    const result = z.array(z.number()).safeParse([1, 'x']);
    expect(describeIssues(result.error!, 'missions[2].values')).toMatch(/^missions\[2\]\.values\[1\]: /);
    expect(describeIssues(z.string().safeParse(1).error!)).toMatch(/^body: /);
    expect(fieldPath('', [0, 'payload', 'deep', 1, 'x'])).toBe('[0].payload.deep[1].x');
    expect(fieldPath('query', ['limit'])).toBe('query.limit');
  });
});
