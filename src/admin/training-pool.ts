/**
 * The threads that train intent models (a piscina pool), so that training an agent never holds the
 * event loop that answers turns. Threads start when there is training to do and end when idle;
 * they run at a lower scheduling priority than the event loop (a nice increment, on Linux).
 * From the TypeScript sources (tests, `node --import tsx`) a thread loads the worker's .ts file
 * with the tsx loader (a dev dependency); from the build (`npm start`) the compiled .js beside this file.
 *
 * Fair across apps: each app has its own queue, and the queues are served by start-time fair
 * queuing on the size of the definitions (a job's tag is its app's previous tag, or the pool's
 * virtual time when the app was idle, plus its size; the smallest tag goes next). An app that
 * sends large agents one after another is served in turn with the others, and a small agent goes
 * ahead of large ones that wait: it waits at most for the jobs already on a thread. No more than
 * `threads` jobs are handed to piscina at a time, so its own first-come queue stays empty. The
 * jobs waiting are bounded (`maxQueued`): past it `admit` answers 429 with a Retry-After from the
 * recent training times.
 */
import { Piscina } from 'piscina';
import { AppError } from '../platform/index.js';

export interface TrainingPool {
  /** The exported intent model of a validated definition (as JSON); rejects when `signal` aborts. */
  train(definitionJson: string, signal?: AbortSignal, app?: string): Promise<string>;
  /** Refuses (429, Retry-After) a new job of `app` when the queue is full; a job replacing the app's own waiting one is admitted. */
  admit(app: string): void;
  /** Ends the threads; training in progress is rejected. */
  close(): Promise<void>;
}

/** Runs one job on a thread (piscina's `run`; a test may hand in its own). */
export type RunOnThread = (definitionJson: string, signal: AbortSignal) => Promise<string>;

const IDLE_MS = 30_000;
const NICE_INCREMENT = 10;

interface Job {
  json: string;
  app: string;
  start: number;
  finish: number;
  signal: AbortSignal | undefined;
  resolve: (model: string) => void;
  reject: (err: unknown) => void;
  onAbort: () => void;
}

const aborted = (): Error => Object.assign(new Error('The training was aborted'), { name: 'AbortError' });

export class FairTrainingQueue implements TrainingPool {
  private readonly queues = new Map<string, Job[]>();
  private readonly lastFinish = new Map<string, number>();
  private virtualTime = 0;
  private running = 0;
  private queued = 0;
  /** Mean time of a training, ms (a moving average), for Retry-After. */
  private meanMs = 5_000;

  constructor(
    private readonly run: RunOnThread,
    private readonly opts: { threads: number; maxQueued: number; onClose?: () => Promise<void> },
  ) {}

  /** Jobs waiting (not on a thread). */
  get waiting(): number {
    return this.queued;
  }

  admit(app: string): void {
    if (this.queued < this.opts.maxQueued || (this.queues.get(app)?.length ?? 0) > 0) return;
    const retryS = Math.min(
      600,
      Math.max(1, Math.ceil(((this.queued / this.opts.threads) * this.meanMs) / 1000)),
    );
    const msg = `Agent training is busy (${this.queued} waiting, AGENT_TRAINING_QUEUE_MAX); try again later`;
    throw new AppError(429, 'rate_limited', msg, [{ msg, code: 'rate_limited' }], {
      'Retry-After': String(retryS),
    });
  }

  train(definitionJson: string, signal?: AbortSignal, app = ''): Promise<string> {
    if (signal?.aborted) return Promise.reject(aborted());
    return new Promise((resolve, reject) => {
      const start = Math.max(this.virtualTime, this.lastFinish.get(app) ?? 0);
      const job: Job = {
        json: definitionJson,
        app,
        start,
        finish: start + definitionJson.length,
        signal,
        resolve,
        reject,
        onAbort: () => this.drop(job),
      };
      this.lastFinish.set(app, job.finish);
      const queue = this.queues.get(app) ?? [];
      queue.push(job);
      this.queues.set(app, queue);
      this.queued++;
      signal?.addEventListener('abort', job.onAbort, { once: true });
      this.dispatch();
    });
  }

  close(): Promise<void> {
    for (const queue of this.queues.values()) for (const job of queue) job.reject(aborted());
    this.queues.clear();
    this.queued = 0;
    return this.opts.onClose?.() ?? Promise.resolve();
  }

  /** A waiting job whose signal aborted leaves its queue. */
  private drop(job: Job): void {
    const queue = this.queues.get(job.app);
    const at = queue?.indexOf(job) ?? -1;
    if (!queue || at < 0) return;
    queue.splice(at, 1);
    this.queued--;
    if (queue.length === 0) this.queues.delete(job.app);
    job.reject(aborted());
  }

  private dispatch(): void {
    while (this.running < this.opts.threads && this.queued > 0) {
      let next: Job | undefined;
      for (const queue of this.queues.values()) if (!next || queue[0]!.finish < next.finish) next = queue[0];
      const job = next!;
      const queue = this.queues.get(job.app)!;
      queue.shift();
      if (queue.length === 0) this.queues.delete(job.app);
      this.queued--;
      this.virtualTime = Math.max(this.virtualTime, job.start);
      job.signal?.removeEventListener('abort', job.onAbort);
      this.running++;
      const began = performance.now();
      this.run(job.json, job.signal ?? new AbortController().signal)
        .then((model) => {
          this.meanMs = this.meanMs * 0.7 + (performance.now() - began) * 0.3;
          job.resolve(model);
        }, job.reject)
        .finally(() => {
          this.running--;
          // an app idle again starts from the pool's virtual time, not from its old tags
          if (!this.queues.has(job.app) && (this.lastFinish.get(job.app) ?? 0) <= this.virtualTime)
            this.lastFinish.delete(job.app);
          this.dispatch();
        });
    }
  }
}

export function createTrainingPool(opts: { threads: number; maxQueued?: number }): TrainingPool {
  const fromSource = import.meta.url.endsWith('.ts');
  const pool = new Piscina<string, string>({
    filename: new URL(`./training-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url).href,
    minThreads: 0,
    maxThreads: opts.threads,
    idleTimeout: IDLE_MS,
    niceIncrement: NICE_INCREMENT,
    // not the process's own flags: V8 flags such as --max-semi-space-size (npm start) are refused in a thread
    execArgv: fromSource ? ['--import', 'tsx'] : [],
  });
  return new FairTrainingQueue((json, signal) => pool.run(json, { signal }), {
    threads: opts.threads,
    maxQueued: opts.maxQueued ?? 50,
    onClose: () => pool.destroy(),
  });
}
