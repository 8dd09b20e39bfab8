// Ports for the server processes tests start: without QUESTLINE_TEST_PORTS,
// a port the OS hands out is reserved with a lock file like a ranged one (two
// workers probing at once could get the same port), and the run's teardown
// removes the lock files of processes that are gone.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, releasePort, removeStalePortLocks } from './processes';

const lock = (port: number) => `/tmp/questline-test-port-${port}.lock`;
const saved = process.env.QUESTLINE_TEST_PORTS;

afterEach(() => {
  if (saved === undefined) delete process.env.QUESTLINE_TEST_PORTS;
  else process.env.QUESTLINE_TEST_PORTS = saved;
});

describe('freePort without a range', () => {
  it('reserves each port it hands out for this process (a lock file with its pid), so another worker cannot be handed it too', async () => {
    delete process.env.QUESTLINE_TEST_PORTS;
    const ports = await Promise.all(Array.from({ length: 8 }, () => freePort()));
    try {
      expect(new Set(ports).size).toBe(8);
      for (const port of ports) expect(readFileSync(lock(port), 'utf8')).toBe(String(process.pid));
    } finally {
      for (const port of ports) releasePort(port);
    }
    for (const port of ports) expect(existsSync(lock(port))).toBe(false);
  });
});

describe('removeStalePortLocks', () => {
  it('removes the lock files of processes that are gone and keeps those of live ones', () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const [stale, live] = [64_991, 64_992];
    writeFileSync(lock(stale), String(gone));
    writeFileSync(lock(live), String(process.pid));
    try {
      removeStalePortLocks();
      expect(existsSync(lock(stale))).toBe(false);
      expect(readFileSync(lock(live), 'utf8')).toBe(String(process.pid));
    } finally {
      for (const port of [stale, live]) rmSync(lock(port), { force: true });
    }
  });
});
