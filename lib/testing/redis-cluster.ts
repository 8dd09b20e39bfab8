// Test support: a Redis Cluster of the test's own, three masters with one
// replica each, on local ports (REDIS_CLUSTER_TEST_PORTS, default 7100-7199;
// each node's cluster bus is its port + 10000) and a temporary data directory.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis as IORedis } from 'ioredis';
import { portFree, releasePort, reservePort } from './processes';

interface ClusterNode {
  port: number;
  child: ChildProcess;
}

export interface RedisClusterProcess {
  nodes: ClusterNode[];
  /** A seed node's URL (REDIS_URL with REDIS_CLUSTER=true). */
  url: string;
  /** The port of the master serving `key`'s hash slot now. */
  masterOf(key: string): Promise<number>;
  /** Subscribers of a shard channel on the master of its slot (PUBSUB SHARDNUMSUB). */
  shardNumsub(channel: string): Promise<number>;
  /** Stops one node (SIGTERM: a master waits for its replica to catch up, Redis 7's shutdown) and waits until it is gone. */
  stopNode(port: number): Promise<void>;
  /** Waits until every live node sees the cluster healthy with `port`'s slots served by another node. */
  waitForFailover(port: number, timeoutMs?: number): Promise<number>;
  close(): Promise<void>;
}

/** True when redis-server and redis-cli (Redis >= 7: sharded Pub/Sub) are on the PATH. */
export function redisClusterAvailable(): boolean {
  const v = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  const major = Number(/v=(\d+)/.exec(v.stdout ?? '')?.[1] ?? 0);
  return v.status === 0 && major >= 7 && spawnSync('redis-cli', ['--version']).status === 0;
}

async function clusterPort(): Promise<number> {
  for (;;) {
    const port = await reservePort('REDIS_CLUSTER_TEST_PORTS', process.env.REDIS_CLUSTER_TEST_PORTS ?? '7100-7199');
    if (await portFree(port + 10_000)) return port;
    // Its cluster bus port is taken: keep this one reserved (skipped) and try the next.
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function command<T>(port: number, fn: (r: IORedis) => Promise<T>): Promise<T> {
  const r = new IORedis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1_000 });
  r.on('error', () => {});
  try {
    await r.connect();
    return await fn(r);
  } finally {
    r.disconnect();
  }
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`redis cluster: timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** `CLUSTER NODES` of a node: each line's port, flags and slot ranges. */
async function clusterNodes(port: number) {
  const text = await command(port, (r) => r.call('CLUSTER', 'NODES') as Promise<string>);
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [, address, flags, , , , , link, ...slots] = line.split(' ');
      return { port: Number(/:(\d+)@/.exec(address)?.[1]), flags: flags.split(','), connected: link === 'connected', slots };
    });
}

/**
 * Starts six nodes (cluster-node-timeout 1 s, so a failover takes about two
 * seconds) and joins them with `redis-cli --cluster create --cluster-replicas 1`.
 */
export async function startRedisCluster(): Promise<RedisClusterProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), 'questline-redis-cluster-'));
  const nodes: ClusterNode[] = [];
  const ports: number[] = [];
  for (let i = 0; i < 6; i++) ports.push(await clusterPort());
  const stopAll = async () => {
    await Promise.all(
      nodes.map(async (n) => {
        if (n.child.exitCode !== null || n.child.signalCode !== null) return;
        const exited = new Promise((r) => n.child.once('exit', r));
        n.child.kill('SIGKILL');
        await exited;
      }),
    );
    for (const port of ports) releasePort(port);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      const nodeDir = path.join(dir, String(port));
      mkdirSync(nodeDir);
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-node-timeout', '1000', '--cluster-config-file', 'nodes.conf'];
      const child = spawn('redis-server', [...args, '--save', '', '--appendonly', 'no', '--dir', nodeDir, '--daemonize', 'no'], { stdio: 'ignore' });
      nodes.push({ port, child });
    }
    for (const { port } of nodes) await until(`node ${port}`, 15_000, () => command(port, (r) => r.ping()));
    const create = spawnSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '1', '--cluster-yes'], { encoding: 'utf8', timeout: 60_000 });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    for (const { port } of nodes) {
      await until(`cluster_state:ok on ${port}`, 30_000, async () => ((await command(port, (r) => r.call('CLUSTER', 'INFO') as Promise<string>)).includes('cluster_state:ok') ? true : null));
    }
    // Every replica attached to its master (a failover needs one in sync).
    await until('three replicas in sync', 30_000, async () => {
      const replicas = (await clusterNodes(ports[0])).filter((n) => n.flags.includes('slave') && n.connected);
      if (replicas.length < 3) return null;
      for (const r of replicas) {
        const info = await command(r.port, (c) => c.info('replication'));
        if (!info.includes('master_link_status:up')) return null;
      }
      return true;
    });
  } catch (err) {
    await stopAll();
    throw err;
  }
  const live = () => nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
  const masterOf = async (key: string): Promise<number> => {
    const slot = await command(live()[0].port, (r) => r.call('CLUSTER', 'KEYSLOT', key) as Promise<number>);
    for (const n of await clusterNodes(live()[0].port)) {
      if (!n.flags.includes('master') || n.flags.includes('fail')) continue;
      for (const range of n.slots) {
        const [from, to = from] = range.split('-').map(Number);
        if (slot >= from && slot <= to) return n.port;
      }
    }
    throw new Error(`no master serves slot ${slot}`);
  };
  return {
    nodes,
    url: `redis://127.0.0.1:${ports[0]}`,
    masterOf,
    shardNumsub: async (channel) => {
      const port = await masterOf(channel);
      const reply = await command(port, (r) => r.call('PUBSUB', 'SHARDNUMSUB', channel) as Promise<[string, number]>);
      return Number(reply[1]);
    },
    stopNode: async (port) => {
      const node = nodes.find((n) => n.port === port)!;
      const exited = new Promise((r) => node.child.once('exit', r));
      node.child.kill('SIGTERM');
      await exited;
    },
    waitForFailover: (port, timeoutMs = 30_000) =>
      until(`a replica promoted in place of ${port}`, timeoutMs, async () => {
        for (const n of live()) {
          const info = await command(n.port, (r) => r.call('CLUSTER', 'INFO') as Promise<string>);
          if (!info.includes('cluster_state:ok')) return null;
        }
        const masters = (await clusterNodes(live()[0].port)).filter((n) => n.flags.includes('master') && !n.flags.includes('fail') && n.port !== port && n.slots.length > 0);
        return masters.length === 3 ? masters.length : null;
      }),
    close: stopAll,
  };
}
