/**
 * The reference deployment (deploy/run.sh with deploy/haproxy.cfg) as the test suites run it: on
 * free loopback ports, on the test run's Redis under a key prefix of its own, the instances from
 * the sources (tsx), its state folder in a temporary directory. The script runs under the
 * watchdog of spawnWatched, and ties what it starts to itself, so nothing outlives the test run.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, spawnWatched, type WatchedProcess } from '../helpers/redis-processes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ReferenceDeployment {
  /** HAProxy's front: what callers and operators use. */
  url: string;
  adminToken: string;
  keyPrefix: string;
  /** The script's process (its output names every process it started). */
  script: WatchedProcess;
  /** Process ids the script reported, by name (gw1, gw2, gw3, haproxy). */
  pids: Record<string, number>;
  /** HAProxy's statistics (`show stat` on its admin socket), one record per proxy and server. */
  stats(): Promise<Record<string, string>[]>;
  /** Waits until the script's output matches (fails when the script exits first). */
  waitForOutput(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Stops the deployment (SIGTERM to the script) and removes its state folder; the script's exit status. */
  stop(): Promise<number>;
}

async function distinctFreePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

/** Sends one command to HAProxy's admin socket and returns everything it answers. */
function adminCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const s = connect(socketPath, () => s.end(`${command}\n`));
    s.setEncoding('utf8');
    s.on('data', (d: string) => (out += d));
    s.on('end', () => resolve(out));
    s.on('error', reject);
  });
}

/** Starts the deployment and waits until the script says it is ready (HAProxy answers /readyz). */
export async function startReferenceDeployment(opts: {
  redisUrl: string;
  keyPrefix: string;
}): Promise<ReferenceDeployment> {
  const [listen, gw1, gw2, gw3] = await distinctFreePorts(4);
  const stateDir = mkdtempSync(join(tmpdir(), 'ivr-deploy-'));
  const adminToken = `deploy-admin-${randomUUID()}`;
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin:/usr/sbin:/sbin',
    HOME: process.env.HOME ?? '/tmp',
    TMPDIR: process.env.TMPDIR ?? '/tmp',
    REDIS_URL: opts.redisUrl,
    KEY_PREFIX: opts.keyPrefix,
    MASTER_KEY: randomBytes(32).toString('base64'),
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'warn',
    TURN_DEADLINE_MS: '1500',
    DEPLOY_FROM_SOURCE: '1',
    DEPLOY_STATE_DIR: stateDir,
    DEPLOY_LISTEN_HOST: '127.0.0.1',
    DEPLOY_LISTEN_PORT: String(listen),
    DEPLOY_GW1_PORT: String(gw1),
    DEPLOY_GW2_PORT: String(gw2),
    DEPLOY_GW3_PORT: String(gw3),
  };
  const script = await spawnWatched('bash', [join(ROOT, 'deploy/run.sh')], { cwd: ROOT, env });

  async function waitForOutput(pattern: RegExp): Promise<RegExpMatchArray> {
    for (;;) {
      const m = script.output().match(pattern);
      if (m) return m;
      if (!script.alive())
        throw new Error(
          `deploy/run.sh exited (${await script.exited}) before ${pattern}:\n${script.output()}`,
        );
      await sleep(100);
    }
  }

  const stop = async () => {
    const code = await script.stop('SIGTERM', 30_000);
    rmSync(stateDir, { recursive: true, force: true });
    return code;
  };
  try {
    await waitForOutput(/deploy: ready at /);
  } catch (err) {
    await stop();
    throw err;
  }
  const pids = Object.fromEntries(
    [...script.output().matchAll(/^deploy: (\w+) pid=(\d+)/gm)].map((m) => [m[1]!, Number(m[2])]),
  );
  return {
    url: `http://127.0.0.1:${listen}`,
    adminToken,
    keyPrefix: opts.keyPrefix,
    script,
    pids,
    async stats() {
      const csv = (await adminCommand(join(stateDir, 'haproxy.sock'), 'show stat')).trim().split('\n');
      const header = csv[0]!.replace(/^# /, '').split(',');
      return csv.slice(1).map((line) => Object.fromEntries(line.split(',').map((v, i) => [header[i]!, v])));
    },
    waitForOutput,
    stop,
  };
}

/**
 * True while a process with this id runs. A zombie (dead, not yet reaped by whoever adopted it)
 * counts as gone: where /proc exists its state is read, else only existence is known.
 */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    // "pid (comm) S ...": the state follows the last ')'
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return !existsSync('/proc/self/stat');
  }
}

/** A fresh key prefix for one deployment. */
export const deploymentPrefix = (runPrefix: string): string =>
  `${runPrefix}deploy-${randomUUID().slice(0, 8)}:`;
