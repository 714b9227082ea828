/**
 * Trains uploaded agents on the training threads and makes each live when its model is ready.
 * The instance that trains holds a lock in the store and renews it; when it stops, the lock
 * expires and another instance that serves the app takes the upload over. An upload replaced by a
 * newer one (here or on another instance) is abandoned: its renewal fails, its thread is stopped,
 * and its result, were it to arrive, is refused by the commit's guard on the upload's version.
 */
import { createHash } from 'node:crypto';
import {
  loadCompiledAgent,
  loadValidatedAgent,
  type AgentDefinition,
  type CompiledAgent,
} from '../agent/index.js';
import { isoNow, newId, type Logger } from '../platform/index.js';
import { isStoreUnavailable, storeKeys, type Store, type WriteOp } from '../store/index.js';
import type { TrainingPool } from './training-pool.js';

export interface TrainingJob {
  streamId: string;
  version: string;
  /** The definition as stored (validated, defaults applied). */
  json: string;
  /** The same, parsed, when this process validated it (saves validating it again on the event loop). */
  definition?: AgentDefinition;
  /** The lock token this job holds. */
  token: string;
  /** The hash of the upload as it was sent (before validation), kept with the live definition. */
  raw?: string;
  /** Where the trained agent goes: live (published; the default) or the draft the sandbox may answer from. */
  target?: TrainingTarget;
  /** Whether going live ends the draft (a new save published at once supersedes it; a rollback does not). */
  clearDraft?: boolean;
}

export type TrainingTarget = 'live' | 'draft';

export const TRAINING_FAILED = 'The intent model could not be trained; the previous agent stays live';

/** The version of a stored definition: a hash of its JSON. */
export const versionOf = (json: string): string =>
  createHash('sha256').update(json).digest('hex').slice(0, 16);

/**
 * The hash of an upload as sent, before validation: a definition sent again unchanged is known by
 * it without validating it again (its JSON text is made once; validating costs far more).
 */
export const rawHashOf = (input: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(input) ?? '')
    .digest('hex');

export class AgentTrainer {
  private readonly running = new Map<string, { controller: AbortController; token: string }>();

  constructor(
    private readonly store: Store,
    private readonly pool: TrainingPool,
    private readonly logger: Logger,
    /** Called with the compiled agent once its version is live in the store. */
    private readonly onLive: (
      streamId: string,
      version: string,
      agent: CompiledAgent,
      target: TrainingTarget,
    ) => void,
    readonly lockMs: number,
  ) {}

  /** Runs a job whose upload and lock are stored; replaces a job of the same app here. Never rejects. */
  start(job: TrainingJob): void {
    this.running.get(job.streamId)?.controller.abort();
    const controller = new AbortController();
    this.running.set(job.streamId, { controller, token: job.token });
    void this.run(job, controller).finally(() => {
      if (this.running.get(job.streamId)?.controller === controller) this.running.delete(job.streamId);
    });
  }

  /** Trains an upload whose trainer stopped (its lock expired); nothing when it is trained elsewhere. */
  async takeOver(streamId: string): Promise<void> {
    if (this.running.has(streamId)) return;
    const upload = await this.store.hgetall(storeKeys.agentUpload(streamId));
    if (upload.state !== 'training') return;
    const lock = storeKeys.agentTrainingLock(streamId);
    const token = newId('tr');
    if (!(await this.store.set(lock, token, { ttlMs: this.lockMs, nx: true }))) return;
    const json = await this.store.get(storeKeys.agentUploadDefinition(streamId));
    if (!json) {
      await this.store.atomic([{ op: 'del', key: lock }], [{ key: lock, equals: token }]);
      return;
    }
    // the version of what is stored now (a newer upload may have come meanwhile: the commit's guard tells)
    const version = versionOf(json);
    this.logger.warn({ streamId, version }, 'training an agent upload whose trainer stopped');
    this.start({
      streamId,
      version,
      json,
      token,
      ...(upload.raw ? { raw: upload.raw } : {}),
      target: upload.target === 'draft' ? 'draft' : 'live',
      clearDraft: upload.clearDraft === '1',
    });
  }

  abort(streamId: string): void {
    this.running.get(streamId)?.controller.abort();
    this.running.delete(streamId);
  }

  /** Stops training here and releases the locks, so that other instances take the uploads over at once. */
  async stop(): Promise<void> {
    const jobs = [...this.running.entries()];
    this.running.clear();
    for (const [, job] of jobs) job.controller.abort();
    await Promise.all(
      jobs.map(([streamId, job]) => {
        const lock = storeKeys.agentTrainingLock(streamId);
        return this.store
          .atomic([{ op: 'del', key: lock }], [{ key: lock, equals: job.token }])
          .catch((err: unknown) =>
            this.logger.warn({ err, streamId }, 'could not release an agent training lock'),
          );
      }),
    );
    await this.pool.close();
  }

  private async run(job: TrainingJob, controller: AbortController): Promise<void> {
    const { streamId, version } = job;
    const lock = storeKeys.agentTrainingLock(streamId);
    const upload = storeKeys.agentUpload(streamId);
    const renew = setInterval(
      () => {
        this.store
          .atomic([{ op: 'pexpire', key: lock, ttlMs: this.lockMs }], [{ key: lock, equals: job.token }])
          .then(
            (r) => {
              // a newer upload, or another instance after this one's lock lapsed, trains now
              if (!r.ok) controller.abort();
            },
            (err: unknown) => this.logger.warn({ err, streamId }, 'could not renew the agent training lock'),
          );
      },
      Math.max(1, Math.floor(this.lockMs / 3)),
    );
    renew.unref();
    try {
      const model = await this.pool.train(job.json, controller.signal, streamId);
      if (controller.signal.aborted) return;
      // the thread trained from job.json itself: no fingerprint check (one pass over every utterance less)
      const agent = job.definition
        ? loadValidatedAgent(job.definition, model, { trainedFromIt: true })
        : loadCompiledAgent(JSON.parse(job.json) as unknown, model);
      const target = job.target ?? 'live';
      const since = isoNow();
      const placed: WriteOp[] =
        target === 'draft'
          ? [
              { op: 'del', key: storeKeys.agentDraft(streamId) },
              { op: 'hset', key: storeKeys.agentDraft(streamId), fields: { version, json: job.json, since } },
              { op: 'set', key: storeKeys.agentDraftModel(streamId), value: model },
            ]
          : [
              {
                op: 'hset',
                key: storeKeys.agentDefinition(streamId),
                fields: { version, json: job.json, since, raw: job.raw ?? '' },
              },
              { op: 'set', key: storeKeys.agentModel(streamId), value: model },
              ...(job.clearDraft
                ? [
                    { op: 'del' as const, key: storeKeys.agentDraft(streamId) },
                    { op: 'del' as const, key: storeKeys.agentDraftModel(streamId) },
                  ]
                : []),
            ];
      const committed = await this.store.atomic(
        [
          ...placed,
          { op: 'del', key: upload },
          { op: 'del', key: storeKeys.agentUploadDefinition(streamId) },
          { op: 'del', key: lock },
        ],
        [{ key: upload, hashField: 'version', equals: version }],
      );
      if (!committed.ok) {
        this.logger.info({ streamId, version }, 'agent training superseded by a newer upload');
        return;
      }
      this.onLive(streamId, version, agent, target);
      this.logger.info(
        { streamId, version, target },
        target === 'draft' ? 'agent draft trained' : 'agent trained and live',
      );
    } catch (err) {
      if (controller.signal.aborted) {
        this.logger.info(
          { streamId, version },
          'agent training stopped (a newer upload, the app deleted, or the instance stopping)',
        );
        return;
      }
      if (isStoreUnavailable(err)) {
        // the lock expires and this or another instance trains the upload again
        this.logger.warn(
          { err, streamId, version },
          'agent training could not be committed: store unavailable',
        );
        return;
      }
      this.logger.error({ err, streamId, version }, 'agent training failed');
      await this.store
        .atomic(
          [
            { op: 'hset', key: upload, fields: { state: 'failed', error: TRAINING_FAILED } },
            { op: 'del', key: lock },
          ],
          [{ key: upload, hashField: 'version', equals: version }],
        )
        .catch((e: unknown) =>
          this.logger.warn({ err: e, streamId }, 'could not record a failed agent training'),
        );
    } finally {
      clearInterval(renew);
    }
  }
}
