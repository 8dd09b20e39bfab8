import { describe, expect, it } from 'vitest';
import { inUserQueue, queuedUsers } from './user-queue';

/** A task that runs only when released, recording when it starts and ends. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const task = async () => {
    log.push(`start ${name}`);
    await released;
    log.push(`end ${name}`);
    return name;
  };
  return { task, release };
}

describe('inUserQueue', () => {
  it('runs one user’s tasks one at a time, in arrival order, while another user’s run alongside', async () => {
    const log: string[] = [];
    const a1 = gate(log, 'a1');
    const a2 = gate(log, 'a2');
    const b1 = gate(log, 'b1');
    const results = [inUserQueue('a', a1.task), inUserQueue('a', a2.task), inUserQueue('b', b1.task)];
    await Promise.resolve();
    expect(log).toEqual(['start a1', 'start b1']);
    a2.release(); // released early: still waits for a1
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(['start a1', 'start b1']);
    a1.release();
    b1.release();
    expect(await Promise.all(results)).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
  });

  it('a failing task answers its error and does not hold up the next; the queue is gone once idle', async () => {
    const failed = inUserQueue('c', async () => {
      throw new Error('boom');
    });
    const next = inUserQueue('c', async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ran');
    await new Promise((r) => setImmediate(r));
    expect(queuedUsers()).toBe(0);
  });
});
