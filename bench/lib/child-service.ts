/**
 * Runs the gateway as a separate process (`node --import tsx src/main.ts`, or `node $BENCH_ENTRY`
 * for a compiled build such as dist/main.js), waits for its
 * "listening on" line and stops it with SIGTERM (the service drains and exits; SIGKILL after a
 * grace period). The child's own output goes to our stderr, so the bench's stdout stays JSON.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface ChildService {
  url: string;
  pid: number;
  stop(): Promise<number | null>;
}

export interface ChildOptions {
  env: Record<string, string>;
  /** Extra node flags, e.g. ['--cpu-prof', '--cpu-prof-dir', dir]. */
  nodeFlags?: string[];
  startTimeoutMs?: number;
}

/**
 * The node flags the service runs with, as package.json's `start` script gives them (a test keeps
 * the two the same): a 32 MB young-generation semi-space (README, Configuration: fewer scavenges and
 * less time in them at 64 calls).
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=32'];

/** The flags a bench starts the service with: SERVICE_NODE_FLAGS, then BENCH_NODE_FLAGS (e.g. "--trace-gc"; later flags win). */
export const serviceNodeFlags = (): string[] => [
  ...SERVICE_NODE_FLAGS,
  ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
];

export async function startChildService(opts: ChildOptions): Promise<ChildService> {
  const entry = process.env.BENCH_ENTRY;
  const flags = [...serviceNodeFlags(), ...(opts.nodeFlags ?? [])];
  const args = entry ? [...flags, entry] : ['--import', 'tsx', ...flags, 'src/main.ts'];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: projectRoot,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(`[service] ${d}`));

  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(
      () => reject(new Error('the service did not start in time')),
      opts.startTimeoutMs ?? 30_000,
    );
    const onData = (d: Buffer) => {
      buffered += d.toString();
      const m = /listening on (http:\/\/\S+?)\s/.exec(buffered);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stdout!.on('data', (d: Buffer) => process.stderr.write(`[service] ${d}`));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited with code ${code} before listening`));
    });
  });

  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(kill);
      return code;
    },
  };
}
