/**
 * Each app's agent: the uploaded definition, trained off the event loop, and the compiled agent
 * that turns use. An upload is checked at once (size limits, validation) and answered; its model
 * trains on a training thread (agent-training.ts), and the agent live until then keeps answering
 * turns. Other instances import the stored model of a new live version in the background and keep
 * serving the version they have until it is loaded; a model missing or stale (written from other
 * utterances) is trained again on a training thread. A compiled agent is kept per app in the cache
 * the composition root hands in, and its version re-checked at most every `recheckMs`.
 */
import type { LRUCache } from 'lru-cache';
import { IntentModelError, loadCompiledAgent, validateAgentDefinition, type AgentDefinition, type CompiledAgent } from '../agent/index.js';
import { AppError, isoNow, newId, type Logger, type RateLimiter } from '../platform/index.js';
import { storeKeys, type Store } from '../store/index.js';
import type { AgentStatus } from './admin-schemas.js';
import { checkAgentLimits, type AgentLimits } from './agent-limits.js';
import { AgentTrainer, rawHashOf, versionOf } from './agent-training.js';
import type { TrainingPool } from './training-pool.js';

/** A compiled agent as kept, with the version it was compiled from and when that was last checked. */
export interface AgentCacheEntry {
  version: string;
  checkedAt: number;
  agent: Promise<CompiledAgent>;
  /** A newer live version being loaded while this one keeps answering. */
  loading?: string;
}

/** Checks that need other components (e.g. that a transfer names an imported skill group). */
export type DefinitionCheck = (streamId: string, definition: AgentDefinition) => Promise<Array<{ path: string; msg: string }>>;

export interface AgentRegistryOptions {
  store: Store;
  cache: LRUCache<string, AgentCacheEntry>;
  trainer: TrainingPool;
  logger: Logger;
  limits: AgentLimits;
  checks?: DefinitionCheck[];
  recheckMs?: number;
  /** How long a training lock lives unless its instance renews it. */
  trainingLockMs?: number;
  /** Uploads per app (AGENT_UPLOADS_PER_MINUTE): past it, 429 with Retry-After. */
  uploadLimiter?: RateLimiter;
}

const TRAINING_LOCK_MS = 15_000;

export class AgentRegistry {
  private readonly store: Store;
  private readonly cache: LRUCache<string, AgentCacheEntry>;
  private readonly logger: Logger;
  private readonly training: AgentTrainer;
  private readonly recheckMs: number;

  constructor(private readonly opts: AgentRegistryOptions) {
    this.store = opts.store;
    this.cache = opts.cache;
    this.logger = opts.logger;
    this.recheckMs = opts.recheckMs ?? 2_000;
    this.training = new AgentTrainer(opts.store, opts.trainer, opts.logger, (streamId, version, agent) => this.cache.set(streamId, { version, checkedAt: Date.now(), agent: Promise.resolve(agent) }), opts.trainingLockMs ?? TRAINING_LOCK_MS);
  }

  /**
   * Counts the upload against its app's rate (429 past it); knows a definition sent again unchanged
   * by the hash of what was sent, before validating it (answers the live agent's status, or the
   * training one's); else checks the limits (400 naming each), validates (400 listing every
   * problem), makes room in the training queue (429 when full), stores the upload and starts its
   * training; answers the status at once. The live agent answers turns until the new one is trained.
   */
  async put(streamId: string, input: unknown): Promise<AgentStatus> {
    if (this.opts.uploadLimiter) {
      const r = await this.opts.uploadLimiter.consume(streamId);
      if (!r.allowed) throw AppError.rateLimited(r.msBeforeNext / 1000);
    }
    const raw = rawHashOf(input);
    const keys = this.keys(streamId);
    const [[live, liveRaw], upload, trainingHeld] = await Promise.all([this.store.hgetall(keys.definition).then((d) => [d.version, d.raw] as const), this.store.hgetall(keys.upload), this.store.exists(keys.lock)]);
    const unchanged = await this.unchanged(streamId, raw, { live, liveRaw, upload, trainingHeld });
    if (unchanged) return unchanged;

    checkAgentLimits(input, this.opts.limits);
    const checked = validateAgentDefinition(input);
    const problems = checked.ok ? (await Promise.all((this.opts.checks ?? []).map((c) => c(streamId, checked.definition)))).flat() : checked.problems;
    if (!checked.ok || problems.length) throw AppError.validation(problems.map((p) => ({ msg: p.msg, path: `body${p.path ? `.${p.path}` : ''}` })));
    const json = JSON.stringify(checked.definition);
    const version = versionOf(json);
    if (live === version) {
      // the live agent again: nothing to train, and an upload still training is dropped
      await this.dropUpload(streamId, upload);
      return (await this.status(streamId)) ?? { state: 'ready', liveVersion: live, latestVersion: live };
    }
    if (upload.version === version && upload.state === 'training' && trainingHeld) {
      return { state: 'training', liveVersion: live ?? null, latestVersion: version, ...(upload.since ? { trainingSince: upload.since } : {}) };
    }
    this.opts.trainer.admit(streamId);
    const token = newId('tr');
    const since = isoNow();
    await this.store.atomic([
      { op: 'del', key: keys.upload },
      { op: 'hset', key: keys.upload, fields: { version, state: 'training', since, raw } },
      { op: 'set', key: keys.uploadDefinition, value: json },
      { op: 'set', key: keys.lock, value: token, ttlMs: this.training.lockMs },
    ]);
    this.training.start({ streamId, version, json, definition: checked.definition, token, raw });
    return { state: 'training', liveVersion: live ?? null, latestVersion: version, trainingSince: since };
  }

  /** The status of an upload sent again exactly as before (the live agent, or the one training); null when it is new. */
  private async unchanged(streamId: string, raw: string, seen: { live: string | undefined; liveRaw: string | undefined; upload: Record<string, string>; trainingHeld: boolean }): Promise<AgentStatus | null> {
    const { live, liveRaw, upload, trainingHeld } = seen;
    if (live && liveRaw === raw) {
      await this.dropUpload(streamId, upload);
      return (await this.status(streamId)) ?? { state: 'ready', liveVersion: live, latestVersion: live };
    }
    if (upload.raw === raw && upload.version && upload.state === 'training' && trainingHeld) {
      return { state: 'training', liveVersion: live ?? null, latestVersion: upload.version, ...(upload.since ? { trainingSince: upload.since } : {}) };
    }
    return null;
  }

  /** Drops an upload still training (the live agent was sent again); only the upload read (a newer one stored meanwhile stays). */
  private async dropUpload(streamId: string, upload: Record<string, string>): Promise<void> {
    if (!upload.version) return;
    const keys = this.keys(streamId);
    this.training.abort(streamId);
    const drop = [keys.upload, keys.uploadDefinition, keys.lock].map((key) => ({ op: 'del' as const, key }));
    await this.store.atomic(drop, [{ key: keys.upload, hashField: 'version', equals: upload.version }]);
  }

  /** The latest accepted definition (the one training, or that failed to train, else the live one). */
  async getDefinition(streamId: string): Promise<AgentDefinition | null> {
    const keys = this.keys(streamId);
    const json = (await this.store.get(keys.uploadDefinition)) ?? (await this.store.hget(keys.definition, 'json'));
    return json ? (JSON.parse(json) as AgentDefinition) : null;
  }

  /** Which version is live and how the latest upload stands; null when the app has no agent. */
  async status(streamId: string): Promise<AgentStatus | null> {
    const keys = this.keys(streamId);
    const [live, liveSince, upload] = await Promise.all([this.store.hget(keys.definition, 'version'), this.store.hget(keys.definition, 'since'), this.store.hgetall(keys.upload)]);
    const since = liveSince ? { liveSince } : {};
    if (upload.version) {
      if (upload.state === 'training') this.takeOver(streamId);
      return {
        state: upload.state === 'failed' ? 'failed' : 'training',
        liveVersion: live,
        latestVersion: upload.version,
        ...since,
        ...(upload.since ? { trainingSince: upload.since } : {}),
        ...(upload.error ? { error: upload.error } : {}),
      };
    }
    return live ? { state: 'ready', liveVersion: live, latestVersion: live, ...since } : null;
  }

  /** The compiled agent that answers the app's turns, or null when none is live. */
  async get(streamId: string): Promise<CompiledAgent | null> {
    const now = Date.now();
    const hit = this.cache.get(streamId);
    if (hit && now - hit.checkedAt < this.recheckMs) return hit.agent;
    const keys = this.keys(streamId);
    const [version, uploadState] = await Promise.all([this.store.hget(keys.definition, 'version'), this.store.hget(keys.upload, 'state')]);
    if (uploadState === 'training') this.takeOver(streamId);
    if (!version) {
      this.cache.delete(streamId);
      return null;
    }
    if (hit && hit.version === version) {
      hit.checkedAt = now;
      return hit.agent;
    }
    if (hit) {
      // another version went live: the one kept answers until the new one is loaded
      hit.checkedAt = now;
      if (hit.loading !== version) this.refresh(streamId, version, hit);
      return hit.agent;
    }
    const entry: AgentCacheEntry = { version, checkedAt: now, agent: this.load(streamId).then((l) => l.agent) };
    this.cache.set(streamId, entry);
    entry.agent.catch(() => {
      if (this.cache.get(streamId) === entry) this.cache.delete(streamId);
    });
    return entry.agent;
  }

  forget(streamId: string): void {
    this.cache.delete(streamId);
    this.training.abort(streamId);
  }

  /** Stops training (another instance takes the uploads in progress over) and ends the threads. */
  stop(): Promise<void> {
    return this.training.stop();
  }

  private keys(streamId: string) {
    return {
      definition: storeKeys.agentDefinition(streamId),
      model: storeKeys.agentModel(streamId),
      upload: storeKeys.agentUpload(streamId),
      uploadDefinition: storeKeys.agentUploadDefinition(streamId),
      lock: storeKeys.agentTrainingLock(streamId),
    };
  }

  private takeOver(streamId: string): void {
    this.training.takeOver(streamId).catch((err: unknown) => this.logger.warn({ err, streamId }, 'could not take over an agent training'));
  }

  /** Loads a newer live version in the background; `old` answers until it is ready. */
  private refresh(streamId: string, version: string, old: AgentCacheEntry): void {
    old.loading = version;
    this.load(streamId).then(
      (loaded) => {
        if (this.cache.get(streamId) === old) this.cache.set(streamId, { version: loaded.version, checkedAt: Date.now(), agent: Promise.resolve(loaded.agent) });
      },
      (err: unknown) => {
        old.loading = undefined;
        this.logger.warn({ err, streamId, version }, 'could not load the new agent version; the previous one answers');
      },
    );
  }

  /** The live version from the store: its stored model imported, or (missing or stale) trained on a thread. */
  private async load(streamId: string): Promise<{ version: string; agent: CompiledAgent }> {
    const keys = this.keys(streamId);
    const [def, model] = await Promise.all([this.store.hgetall(keys.definition), this.store.get(keys.model)]);
    if (!def.json || !def.version) throw AppError.notFound('Agent not found');
    const definition = JSON.parse(def.json) as unknown;
    if (model) {
      try {
        return { version: def.version, agent: loadCompiledAgent(definition, model) };
      } catch (err) {
        if (!(err instanceof IntentModelError)) throw err;
        // a model trained from other utterances (written by an older version, or read across a commit)
      }
    }
    const trained = await this.opts.trainer.train(def.json, undefined, streamId);
    await this.store.atomic([{ op: 'set', key: keys.model, value: trained }], [{ key: keys.definition, hashField: 'version', equals: def.version }]);
    return { version: def.version, agent: loadCompiledAgent(definition, trained) };
  }
}
