// Redis rejects PX values that are not positive integers; checking up front
// makes every backend fail the same way instead of only the remote ones.
export function assertTtl(ttlMs: number): void {
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new RangeError(`ttlMs must be a positive integer, got ${ttlMs}`);
  }
}
