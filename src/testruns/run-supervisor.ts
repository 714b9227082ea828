/**
 * Ownership of runs across instances. Each instance has an id and a heartbeat key (TTL
 * `ownerTtlMs`, refreshed every `heartbeatMs`); each run records its owner. A run still `running`
 * in the store whose owner has no heartbeat (a process that died) — or whose owner is this instance
 * but no loop here runs it — is marked `failed` with isPartialFailure and the results so far, at
 * start() and then every `sweepMs`. stop() asks the loops to end (failed, partial) and waits up to
 * `stopGraceMs`; halt() drops everything without a write, as a killed process would.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../platform/index.js';
import type { FinishRun } from './run-finisher.js';
import type { RunControl } from './run-loop.js';
import type { RunRef, TestrunsRepository } from './testruns-repository.js';

export interface SupervisorOptions {
  heartbeatMs: number;
  ownerTtlMs: number;
  sweepMs: number;
  stopGraceMs: number;
}

interface LiveRun {
  ref: RunRef;
  control: RunControl;
  done: Promise<unknown>;
}

const keyOf = (r: RunRef): string => `${r.streamId}|${r.runId}`;

export class RunSupervisor {
  readonly instanceId: string;
  private readonly live = new Map<string, LiveRun>();
  private beatTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly deps: {
      repo: TestrunsRepository;
      finish: FinishRun;
      logger: Logger;
      options: SupervisorOptions;
      instanceId?: string;
    },
  ) {
    this.instanceId = deps.instanceId ?? `pi-${randomUUID()}`;
  }

  get accepting(): boolean {
    return !this.closed;
  }

  get liveCount(): number {
    return this.live.size;
  }

  async start(): Promise<void> {
    this.closed = false;
    await this.ensureBeating();
    await this.sweep();
    if (!this.sweepTimer) {
      this.sweepTimer = setInterval(() => void this.sweep(), this.deps.options.sweepMs);
      this.sweepTimer.unref();
    }
  }

  /** Writes the heartbeat and keeps it fresh (also when runs are launched before start()). */
  async ensureBeating(): Promise<void> {
    if (this.beatTimer) return;
    const { repo, options, logger } = this.deps;
    await repo.beat(this.instanceId, options.ownerTtlMs);
    this.beatTimer = setInterval(() => {
      repo
        .beat(this.instanceId, options.ownerTtlMs)
        .catch((err: unknown) => logger.warn({ err }, 'testruns: heartbeat failed'));
    }, options.heartbeatMs);
    this.beatTimer.unref();
  }

  /** Registers a run as live here before it is stored, so a concurrent sweep never takes it for orphaned. */
  claim(ref: RunRef): RunControl {
    const control: RunControl = { stopping: false, halted: false };
    this.live.set(keyOf(ref), { ref, control, done: Promise.resolve() });
    return control;
  }

  attach(ref: RunRef, done: Promise<unknown>): void {
    const entry = this.live.get(keyOf(ref));
    if (!entry) return;
    entry.done = done.finally(() => {
      if (this.live.get(keyOf(ref)) === entry) this.live.delete(keyOf(ref));
    });
  }

  release(ref: RunRef): void {
    this.live.delete(keyOf(ref));
  }

  /** Fails every active run that no live instance runs; forgets finished ones. */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce()
      .catch((err: unknown) => this.deps.logger.warn({ err }, 'testruns: sweep failed'))
      .finally(() => {
        this.sweeping = undefined;
      });
    return this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    const { repo, finish, logger } = this.deps;
    for (const ref of await repo.listActive()) {
      if (this.closed) return;
      const run = await repo.getRun(ref.streamId, ref.runId);
      if (!run || run.status !== 'running') {
        await repo.removeActive(ref);
        continue;
      }
      if (run.owner === this.instanceId ? this.live.has(keyOf(ref)) : await repo.isAlive(run.owner)) continue;
      const ok = await finish(run, run.owner, {
        status: 'failed',
        ran: run.ran,
        results: run.results,
        ...(run.analysis ? { analysis: run.analysis } : {}),
        reason: 'cut off: the instance running it stopped',
      });
      if (ok)
        logger.warn(
          { runId: ref.runId, streamId: ref.streamId, ran: run.ran, owner: run.owner },
          'testruns: run cut off, marked failed',
        );
    }
  }

  /** Ends the loops (failed, partial results kept), waits up to stopGraceMs, fails what is still stuck. */
  async stop(): Promise<void> {
    this.closed = true;
    this.clearTimers();
    await this.sweeping;
    const runs = [...this.live.values()];
    for (const r of runs) r.control.stopping = true;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.deps.options.stopGraceMs);
    });
    await Promise.race([Promise.allSettled(runs.map((r) => r.done)), grace]);
    clearTimeout(timer);
    for (const r of [...this.live.values()]) {
      r.control.halted = true;
      this.live.delete(keyOf(r.ref));
      const run = await this.deps.repo.getRun(r.ref.streamId, r.ref.runId);
      if (run?.status === 'running' && run.owner === this.instanceId) {
        await this.deps.finish(run, this.instanceId, {
          status: 'failed',
          ran: run.ran,
          results: run.results,
          ...(run.analysis ? { analysis: run.analysis } : {}),
          reason: 'stopped: the instance running it shut down',
        });
      }
    }
    await this.deps.repo.dropBeat(this.instanceId);
  }

  /** Abandons everything at once without a write: what a killed process leaves behind. */
  halt(): void {
    this.closed = true;
    this.clearTimers();
    for (const r of this.live.values()) r.control.halted = true;
    this.live.clear();
  }

  private clearTimers(): void {
    clearInterval(this.beatTimer);
    clearInterval(this.sweepTimer);
    this.beatTimer = undefined;
    this.sweepTimer = undefined;
  }
}
