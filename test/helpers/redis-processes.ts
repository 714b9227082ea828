/**
 * Real processes for reliability tests: redis-server instances (single, or a Cluster of masters
 * built with ioredis commands only, no redis-cli) and any other command, each on loopback.
 * Every process is spawned under a small shell watchdog that kills it when this process dies
 * (its stdin pipe closes), so a crashed or killed test runner leaves nothing behind.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const redisServerBin = (): string => process.env.TEST_REDIS_SERVER_BIN || 'redis-server';

/** True when a redis-server binary can be run here. */
export function redisServerAvailable(): boolean {
  const r = spawnSync(redisServerBin(), ['--version'], { stdio: 'ignore', timeout: 5_000 });
  return r.status === 0;
}

export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A loopback port the kernel just handed out (free at the time of the call). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** A port p with p+10000 free too (a cluster node's bus port), below the ephemeral range. */
export async function freeClusterPort(taken: Set<number> = new Set()): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const p = 20_000 + Math.floor(Math.random() * 12_000);
    if (taken.has(p) || taken.has(p + 10_000)) continue;
    if ((await portIsFree(p)) && (await portIsFree(p + 10_000))) return p;
  }
  throw new Error('no free pair of ports for a cluster node');
}

// The watchdog: runs "$@" in the background, prints its pid, kills it when stdin (our pipe) closes,
// and exits with its status. SIGSTOP of the process does not end the watchdog.
const WATCHDOG = [
  'exec 3<&0',
  '"$@" </dev/null 3<&- &',
  'pid=$!',
  'echo "$pid"',
  '( read -r _ <&3; kill -9 "$pid" 2>/dev/null ) &',
  'watcher=$!',
  'wait "$pid"',
  'status=$?',
  'kill "$watcher" 2>/dev/null',
  'exit "$status"',
].join('\n');

export interface WatchedProcess {
  readonly pid: number;
  /** Resolves with the exit status (128+signal when killed) once the process is gone. */
  readonly exited: Promise<number>;
  readonly alive: () => boolean;
  /** Everything it wrote on stdout and stderr so far. */
  readonly output: () => string;
  signal(sig: NodeJS.Signals): void;
  /** Sends `sig` (SIGTERM by default) and waits for the exit, then SIGKILL after `graceMs`. */
  stop(sig?: NodeJS.Signals, graceMs?: number): Promise<number>;
}

export async function spawnWatched(
  command: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<WatchedProcess> {
  const child: ChildProcess = spawn('sh', ['-c', WATCHDOG, 'sh', command, ...args], {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let running = true;
  const exited = new Promise<number>((resolve) => {
    child.once('exit', (code, sig) => {
      running = false;
      child.stdin?.destroy();
      resolve(code ?? (sig ? 128 : 1));
    });
  });
  const pid = await new Promise<number>((resolve, reject) => {
    let first = '';
    const onData = (d: Buffer) => {
      first += d.toString('utf8');
      const nl = first.indexOf('\n');
      if (nl < 0) return;
      child.stdout!.off('data', onData);
      out += first.slice(nl + 1);
      child.stdout!.on('data', (x: Buffer) => (out += x.toString('utf8')));
      resolve(Number(first.slice(0, nl).trim()));
    };
    child.stdout!.on('data', onData);
    child.once('error', reject);
    void exited.then((code) => reject(new Error(`${command} exited (${code}) before it started`)));
  });
  child.stderr!.on('data', (x: Buffer) => (out += x.toString('utf8')));
  const signal = (sig: NodeJS.Signals) => {
    if (!running) return;
    try {
      process.kill(pid, sig);
    } catch {
      /* already gone */
    }
  };
  return {
    pid,
    exited,
    alive: () => running,
    output: () => out,
    signal,
    async stop(sig = 'SIGTERM', graceMs = 5_000) {
      if (!running) return exited;
      signal('SIGCONT');
      signal(sig);
      const timer = setTimeout(() => signal('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Waits until a Redis answers PING on the port (or throws after `timeoutMs`). */
export async function waitForRedis(port: number, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const c = new Redis({
      host: '127.0.0.1',
      port,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      connectTimeout: 500,
      retryStrategy: () => null,
    });
    c.on('error', () => undefined);
    try {
      await c.connect();
      if ((await c.ping()) === 'PONG') return;
    } catch {
      /* not yet */
    } finally {
      c.disconnect();
    }
    if (Date.now() > until) throw new Error(`redis-server on ${port} did not answer within ${timeoutMs} ms`);
    await sleep(50);
  }
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  readonly dir: string;
  readonly process: () => WatchedProcess | null;
  /** SIGSTOP: the server keeps its sockets and data but answers nothing (a blink). */
  pause(): void;
  resume(): void;
  /** Stops it (SIGTERM; no persistence, so its data is gone). */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty). */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

/** Spawns a redis-server on a loopback port with no persistence (`--save "" --appendonly no`). */
export async function startRedisServer(opts: { port?: number; args?: string[] } = {}): Promise<RedisServer> {
  const port = opts.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), `redis-${port}-`));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--logfile',
    join(dir, 'redis.log'),
    ...(opts.args ?? []),
  ];
  let proc: WatchedProcess | null = null;
  const start = async () => {
    proc = await spawnWatched(redisServerBin(), args);
    await waitForRedis(port);
  };
  const stop = async () => {
    if (proc?.alive()) await proc.stop('SIGTERM');
    proc = null;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    process: () => proc,
    pause: () => proc?.signal('SIGSTOP'),
    resume: () => proc?.signal('SIGCONT'),
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RedisClusterProcesses {
  nodes: RedisServer[];
  /** Comma-separated seed URLs (what REDIS_URL takes for a cluster). */
  url: string;
  close(): Promise<void>;
}

const clusterInfo = async (c: Redis): Promise<Record<string, string>> =>
  Object.fromEntries(
    String(await c.call('CLUSTER', 'INFO'))
      .split(/\r?\n/)
      .filter(Boolean)
      .map((l) => l.split(':') as [string, string]),
  );

/** A cluster of `masters` redis-server masters on loopback, slots split evenly, state ok. */
export async function startRedisCluster(masters = 3, timeoutMs = 20_000): Promise<RedisClusterProcesses> {
  const taken = new Set<number>();
  const nodes: RedisServer[] = [];
  const clients: Redis[] = [];
  try {
    for (let i = 0; i < masters; i++) {
      const port = await freeClusterPort(taken);
      taken.add(port).add(port + 10_000);
      nodes.push(
        await startRedisServer({
          port,
          args: [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            'nodes.conf',
            '--cluster-node-timeout',
            '3000',
          ],
        }),
      );
    }
    for (const n of nodes) {
      const c = new Redis({ host: '127.0.0.1', port: n.port, lazyConnect: true, maxRetriesPerRequest: 1 });
      c.on('error', () => undefined);
      await c.connect();
      clients.push(c);
    }
    const per = Math.floor(16_384 / masters);
    for (let i = 0; i < masters; i++) {
      const c = clients[i]!;
      const lo = i * per;
      const hi = i === masters - 1 ? 16_383 : lo + per - 1;
      await c.call('CLUSTER', 'SET-CONFIG-EPOCH', String(i + 1));
      try {
        await c.call('CLUSTER', 'ADDSLOTSRANGE', String(lo), String(hi));
      } catch {
        // redis-server < 7 has no ADDSLOTSRANGE
        const slots = Array.from({ length: hi - lo + 1 }, (_, k) => String(lo + k));
        await c.call('CLUSTER', 'ADDSLOTS', ...slots);
      }
    }
    for (let i = 1; i < masters; i++)
      await clients[0]!.call('CLUSTER', 'MEET', '127.0.0.1', String(nodes[i]!.port));
    const until = Date.now() + timeoutMs;
    for (;;) {
      const infos = await Promise.all(clients.map(clusterInfo));
      if (
        infos.every(
          (x) =>
            x.cluster_state === 'ok' &&
            x.cluster_known_nodes === String(masters) &&
            x.cluster_slots_ok === '16384',
        )
      )
        break;
      if (Date.now() > until)
        throw new Error(
          `cluster did not reach state ok: ${JSON.stringify(infos.map((x) => x.cluster_state))}`,
        );
      await sleep(100);
    }
  } catch (err) {
    for (const c of clients) c.disconnect();
    await Promise.all(nodes.map((n) => n.close()));
    throw err;
  }
  for (const c of clients) c.disconnect();
  return {
    nodes,
    url: nodes.map((n) => n.url).join(','),
    close: async () => {
      await Promise.all(nodes.map((n) => n.close()));
    },
  };
}
