// The host a cookie write must come from: Host, or X-Forwarded-Host only as far
// as TRUST_PROXY trusts proxies (the n-th entry from the right, as X-Forwarded-For).
import { describe, expect, it } from 'vitest';
import { requestHost } from './same-origin';

const headers = (forwarded?: string) => new Headers({ host: 'questline.internal:3000', ...(forwarded ? { 'x-forwarded-host': forwarded } : {}) });

describe('requestHost', () => {
  it('ignores X-Forwarded-Host without a trusted proxy', () => {
    expect(requestHost(headers('evil.example'), 0)).toBe('questline.internal:3000');
  });

  it('takes the entry the outermost trusted proxy wrote, never one a client put before it', () => {
    expect(requestHost(headers('console.example'), 1)).toBe('console.example');
    expect(requestHost(headers('evil.example, console.example'), 1)).toBe('console.example');
    expect(requestHost(headers('evil.example, console.example, inner.example'), 2)).toBe('console.example');
    expect(requestHost(headers('console.example'), 2)).toBe('console.example');
  });

  it('falls back to Host when no proxy wrote one', () => {
    expect(requestHost(headers(), 1)).toBe('questline.internal:3000');
    expect(requestHost(headers(' , '), 1)).toBe('questline.internal:3000');
  });
});
