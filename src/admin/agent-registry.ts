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
import {
  IntentModelError,
  loadCompiledAgent,
  validateAgentDefinition,
  type AgentDefinition,
  type CompiledAgent,
} from '../agent/index.js';
import { AppError, isoNow, newId, type Logger, type RateLimiter } from '../platform/index.js';
import { storeKeys, type Store } from '../store/index.js';
import type { AgentStatus } from './admin-schemas.js';
import { checkAgentLimits, type AgentLimits } from './agent-limits.js';
import { AgentTrainer, rawHashOf, versionOf, type TrainingTarget } from './agent-training.js';
import type { TrainingPool } from './training-pool.js';
import { VersionLog, type VersionRecord } from './version-log.js';

/** Which version answers: the published one (calls), or the latest trained draft (the sandbox may), else the published one. */
export type AgentAudience = 'published' | 'draft';

/** How a save is made: published once trained (as `PUT …/agent` always did), or kept as a draft; by whom, with a note. */
export interface SaveOptions {
  publish: boolean;
  savedBy: string;
  note?: string;
}

/** A saved version as listed: its record and whether it is the published one or the draft. */
export interface AgentVersionListed extends VersionRecord {
  published: boolean;
  draft: boolean;
}

/** A compiled agent as kept, with the version it was compiled from and when that was last checked. */
export interface AgentCacheEntry {
  version: string;
  checkedAt: number;
  agent: Promise<CompiledAgent>;
  /** A newer live version being loaded while this one keeps answering. */
  loading?: string;
}

/** Checks that need other components (e.g. that a transfer names an imported skill group). */
export type DefinitionCheck = (
  streamId: string,
  definition: AgentDefinition,
) => Promise<Array<{ path: string; msg: string }>>;

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
  readonly versions: VersionLog;

  constructor(private readonly opts: AgentRegistryOptions) {
    this.store = opts.store;
    this.cache = opts.cache;
    this.logger = opts.logger;
    this.recheckMs = opts.recheckMs ?? 2_000;
    this.versions = new VersionLog(opts.store, {
      index: storeKeys.agentVersions,
      doc: storeKeys.agentVersion,
    });
    this.training = new AgentTrainer(
      opts.store,
      opts.trainer,
      opts.logger,
      (streamId, version, agent, target) =>
        this.cache.set(cacheKeyOf(streamId, target), {
          version,
          checkedAt: Date.now(),
          agent: Promise.resolve(agent),
        }),
      opts.trainingLockMs ?? TRAINING_LOCK_MS,
    );
  }

  /**
   * Counts the upload against its app's rate (429 past it); knows a definition sent again unchanged
   * by the hash of what was sent, before validating it (answers the live agent's status, or the
   * training one's); else checks the limits (400 naming each), validates (400 listing every
   * problem), makes room in the training queue (429 when full), stores the upload and starts its
   * training; answers the status at once. The live agent answers turns until the new one is trained.
   */
  async put(
    streamId: string,
    input: unknown,
    save: SaveOptions = { publish: true, savedBy: 'admin-token' },
  ): Promise<AgentStatus> {
    if (this.opts.uploadLimiter) {
      const r = await this.opts.uploadLimiter.consume(streamId);
      if (!r.allowed) throw AppError.rateLimited(r.msBeforeNext / 1000);
    }
    const raw = rawHashOf(input);
    const keys = this.keys(streamId);
    // the live definition's version and hash only: its JSON (up to AGENT_MAX_BYTES) is read when needed
    const [live, liveRaw, upload, trainingHeld] = await Promise.all([
      this.store.hget(keys.definition, 'version').then((v) => v ?? undefined),
      this.store.hget(keys.definition, 'raw').then((v) => v ?? undefined),
      this.store.hgetall(keys.upload),
      this.store.exists(keys.lock),
    ]);
    const unchanged = save.publish
      ? await this.unchanged(streamId, raw, { live, liveRaw, upload, trainingHeld })
      : null;
    if (unchanged) return unchanged;

    checkAgentLimits(input, this.opts.limits);
    const checked = validateAgentDefinition(input);
    const problems = checked.ok
      ? (await Promise.all((this.opts.checks ?? []).map((c) => c(streamId, checked.definition)))).flat()
      : checked.problems;
    if (!checked.ok || problems.length)
      throw AppError.validation(
        problems.map((p) => ({ msg: p.msg, path: `body${p.path ? `.${p.path}` : ''}` })),
      );
    const json = JSON.stringify(checked.definition);
    const version = versionOf(json);
    const draft = await this.store.hget(keys.draft, 'version');
    await this.keepUnversionedLive(streamId, live);
    await this.versions.record(
      streamId,
      { version, savedAt: isoNow(), savedBy: save.savedBy, ...(save.note ? { note: save.note } : {}) },
      json,
    );
    await this.versions.trim(streamId, [live, draft, upload.version]);
    if (live === version) {
      // the live agent again: nothing to train, an upload still training is dropped, and so is a
      // draft (the latest save is the published one)
      await this.dropUpload(streamId, upload);
      if (draft)
        await this.store.atomic([
          { op: 'del', key: keys.draft },
          { op: 'del', key: keys.draftModel },
        ]);
      return (await this.status(streamId)) ?? { state: 'ready', liveVersion: live, latestVersion: live };
    }
    if (save.publish && draft === version) return (await this.publish(streamId, version)).status;
    if (!save.publish && draft === version) {
      await this.dropUpload(streamId, upload);
      return (
        (await this.status(streamId)) ?? { state: 'ready', liveVersion: live ?? null, latestVersion: version }
      );
    }
    const target: TrainingTarget = save.publish ? 'live' : 'draft';
    if (
      upload.version === version &&
      upload.state === 'training' &&
      trainingHeld &&
      (upload.target ?? 'live') === target
    ) {
      return {
        state: 'training',
        liveVersion: live ?? null,
        latestVersion: version,
        ...(upload.since ? { trainingSince: upload.since } : {}),
      };
    }
    return this.startTraining(
      streamId,
      { version, json, definition: checked.definition, raw, target, clearDraft: save.publish },
      live ?? null,
    );
  }

  /** The live agent of an app saved before versions were kept becomes a version, so that it can be rolled back to. */
  private async keepUnversionedLive(streamId: string, live: string | undefined): Promise<void> {
    if (!live || (await this.versions.get(streamId, live))) return;
    const def = await this.store.hgetall(this.keys(streamId).definition);
    if (def.version !== live || !def.json) return;
    await this.versions.record(
      streamId,
      {
        version: def.version,
        savedAt: def.since ?? isoNow(),
        savedBy: 'unknown (saved before versions were kept)',
      },
      def.json,
    );
  }

  /** Stores an upload and its lock and starts its training; the status it makes (training). */
  private async startTraining(
    streamId: string,
    job: {
      version: string;
      json: string;
      definition?: AgentDefinition;
      raw: string;
      target: TrainingTarget;
      clearDraft: boolean;
    },
    live: string | null,
  ): Promise<AgentStatus> {
    const keys = this.keys(streamId);
    this.opts.trainer.admit(streamId);
    const token = newId('tr');
    const since = isoNow();
    const { version, json, raw, target, clearDraft } = job;
    await this.store.atomic([
      { op: 'del', key: keys.upload },
      {
        op: 'hset',
        key: keys.upload,
        fields: { version, state: 'training', since, raw, target, clearDraft: clearDraft ? '1' : '0' },
      },
      { op: 'set', key: keys.uploadDefinition, value: json },
      { op: 'set', key: keys.lock, value: token, ttlMs: this.training.lockMs },
    ]);
    this.training.start({
      streamId,
      version,
      json,
      ...(job.definition ? { definition: job.definition } : {}),
      token,
      raw,
      target,
      clearDraft,
    });
    return { state: 'training', liveVersion: live, latestVersion: version, trainingSince: since };
  }

  /**
   * Publishes a saved version (an earlier one: the rollback). The live version again: nothing to
   * do. The trained draft: live at once, its model with it. Any other: trained first (202 status
   * `training`) while the live version keeps answering calls; it goes live when trained. 404 when
   * the version is not kept.
   */
  async publish(streamId: string, version: string): Promise<{ status: AgentStatus; trained: boolean }> {
    const keys = this.keys(streamId);
    const [live, draft, saved] = await Promise.all([
      this.store.hget(keys.definition, 'version'),
      this.store.hgetall(keys.draft),
      this.versions.get(streamId, version),
    ]);
    if (!saved)
      throw AppError.notFound(
        `The agent has no saved version ${version} (it was never saved, or is past the retention)`,
      );
    if (live === version) return { status: (await this.status(streamId))!, trained: true };
    const draftModel = draft.version === version ? await this.store.get(keys.draftModel) : null;
    if (draft.version === version && draftModel && draft.json) {
      const done = await this.store.atomic(
        [
          {
            op: 'hset',
            key: keys.definition,
            fields: { version, json: draft.json, since: isoNow(), raw: '' },
          },
          { op: 'set', key: keys.model, value: draftModel },
          { op: 'del', key: keys.draft },
          { op: 'del', key: keys.draftModel },
        ],
        [{ key: keys.draft, hashField: 'version', equals: version }],
      );
      if (!done.ok) throw AppError.conflict('The agent draft changed meanwhile; try again');
      // this instance answers calls from the draft's compiled agent at once (others load it on their next check)
      const compiled = this.cache.get(cacheKeyOf(streamId, 'draft'));
      if (compiled?.version === version)
        this.cache.set(streamId, { version, checkedAt: Date.now(), agent: compiled.agent });
      this.cache.delete(cacheKeyOf(streamId, 'draft'));
      return { status: (await this.status(streamId))!, trained: true };
    }
    const status = await this.startTraining(
      streamId,
      { version, json: saved.json, raw: '', target: 'live', clearDraft: false },
      live ?? null,
    );
    return { status, trained: false };
  }

  /** The kept versions, newest first, each marked when it is the published one or the draft. */
  async listVersions(
    streamId: string,
  ): Promise<{ versions: AgentVersionListed[]; published: string | null; draft: string | null }> {
    const keys = this.keys(streamId);
    const [list, published, draft] = await Promise.all([
      this.versions.list(streamId),
      this.store.hget(keys.definition, 'version'),
      this.store.hget(keys.draft, 'version'),
    ]);
    return {
      versions: list.map((v) => ({ ...v, published: v.version === published, draft: v.version === draft })),
      published,
      draft,
    };
  }

  /** The published version's id (null before a first one is live). */
  published(streamId: string): Promise<string | null> {
    return this.store.hget(this.keys(streamId).definition, 'version');
  }

  /** The status of an upload sent again exactly as before (the live agent, or the one training); null when it is new. */
  private async unchanged(
    streamId: string,
    raw: string,
    seen: {
      live: string | undefined;
      liveRaw: string | undefined;
      upload: Record<string, string>;
      trainingHeld: boolean;
    },
  ): Promise<AgentStatus | null> {
    const { live, liveRaw, upload, trainingHeld } = seen;
    if (live && liveRaw === raw) {
      await this.dropUpload(streamId, upload);
      return (await this.status(streamId)) ?? { state: 'ready', liveVersion: live, latestVersion: live };
    }
    if (upload.raw === raw && upload.version && upload.state === 'training' && trainingHeld) {
      return {
        state: 'training',
        liveVersion: live ?? null,
        latestVersion: upload.version,
        ...(upload.since ? { trainingSince: upload.since } : {}),
      };
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

  /** The latest accepted definition (the one training, or that failed to train, else the draft, else the live one). */
  async getDefinition(streamId: string): Promise<AgentDefinition | null> {
    const keys = this.keys(streamId);
    const json =
      (await this.store.get(keys.uploadDefinition)) ??
      (await this.store.hget(keys.draft, 'json')) ??
      (await this.store.hget(keys.definition, 'json'));
    return json ? (JSON.parse(json) as AgentDefinition) : null;
  }

  /** Which version is live and how the latest upload stands; null when the app has no agent. */
  async status(streamId: string): Promise<AgentStatus | null> {
    const keys = this.keys(streamId);
    const [live, liveSince, upload, draft] = await Promise.all([
      this.store.hget(keys.definition, 'version'),
      this.store.hget(keys.definition, 'since'),
      this.store.hgetall(keys.upload),
      this.store.hget(keys.draft, 'version'),
    ]);
    const since = { ...(liveSince ? { liveSince } : {}), ...(draft ? { draftVersion: draft } : {}) };
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
    if (draft) return { state: 'ready', liveVersion: live, latestVersion: draft, ...since };
    return live ? { state: 'ready', liveVersion: live, latestVersion: live, ...since } : null;
  }

  /**
   * The compiled agent that answers the app's turns, or null when none is live: the published
   * version, or for `draft` the latest trained draft when there is one.
   */
  async get(streamId: string, from: AgentAudience = 'published'): Promise<CompiledAgent | null> {
    return (await this.resolve(streamId, from))?.agent ?? null;
  }

  /** As `get`, with the version that answers and whether it is the draft or the published one. */
  async resolve(
    streamId: string,
    from: AgentAudience = 'published',
  ): Promise<{ agent: CompiledAgent; version: string; from: AgentAudience } | null> {
    if (from === 'draft') {
      const draft = await this.getTarget(streamId, 'draft');
      if (draft) return { agent: await draft.agent, version: draft.version, from: 'draft' };
    }
    const live = await this.getTarget(streamId, 'live');
    return live ? { agent: await live.agent, version: live.version, from: 'published' } : null;
  }

  /** The cache entry of the app's live (or draft) agent, loaded or refreshed as needed; null when there is none. */
  private async getTarget(streamId: string, target: TrainingTarget): Promise<AgentCacheEntry | null> {
    const now = Date.now();
    const cacheKey = cacheKeyOf(streamId, target);
    const hit = this.cache.get(cacheKey);
    if (hit && now - hit.checkedAt < this.recheckMs) return hit;
    const keys = this.keys(streamId);
    const [version, uploadState] = await Promise.all([
      this.store.hget(target === 'draft' ? keys.draft : keys.definition, 'version'),
      this.store.hget(keys.upload, 'state'),
    ]);
    if (uploadState === 'training') this.takeOver(streamId);
    if (!version) {
      this.cache.delete(cacheKey);
      return null;
    }
    if (hit && hit.version === version) {
      hit.checkedAt = now;
      return hit;
    }
    if (hit) {
      // another version went live: the one kept answers until the new one is loaded
      hit.checkedAt = now;
      if (hit.loading !== version) this.refresh(streamId, target, version, hit);
      return hit;
    }
    const entry: AgentCacheEntry = {
      version,
      checkedAt: now,
      agent: this.load(streamId, target).then((l) => l.agent),
    };
    this.cache.set(cacheKey, entry);
    entry.agent.catch(() => {
      if (this.cache.get(cacheKey) === entry) this.cache.delete(cacheKey);
    });
    return entry;
  }

  forget(streamId: string): void {
    this.cache.delete(streamId);
    this.cache.delete(cacheKeyOf(streamId, 'draft'));
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
      draft: storeKeys.agentDraft(streamId),
      draftModel: storeKeys.agentDraftModel(streamId),
    };
  }

  private takeOver(streamId: string): void {
    this.training
      .takeOver(streamId)
      .catch((err: unknown) => this.logger.warn({ err, streamId }, 'could not take over an agent training'));
  }

  /** Loads a newer live version in the background; `old` answers until it is ready. */
  private refresh(streamId: string, target: TrainingTarget, version: string, old: AgentCacheEntry): void {
    old.loading = version;
    const cacheKey = cacheKeyOf(streamId, target);
    this.load(streamId, target).then(
      (loaded) => {
        if (this.cache.get(cacheKey) === old)
          this.cache.set(cacheKey, {
            version: loaded.version,
            checkedAt: Date.now(),
            agent: Promise.resolve(loaded.agent),
          });
      },
      (err: unknown) => {
        old.loading = undefined;
        this.logger.warn(
          { err, streamId, version },
          'could not load the new agent version; the previous one answers',
        );
      },
    );
  }

  /** The live (or draft) version from the store: its stored model imported, or (missing or stale) trained on a thread. */
  private async load(
    streamId: string,
    target: TrainingTarget,
  ): Promise<{ version: string; agent: CompiledAgent }> {
    const keys = this.keys(streamId);
    const defKey = target === 'draft' ? keys.draft : keys.definition;
    const modelKey = target === 'draft' ? keys.draftModel : keys.model;
    const [def, model] = await Promise.all([this.store.hgetall(defKey), this.store.get(modelKey)]);
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
    await this.store.atomic(
      [{ op: 'set', key: modelKey, value: trained }],
      [{ key: defKey, hashField: 'version', equals: def.version }],
    );
    return { version: def.version, agent: loadCompiledAgent(definition, trained) };
  }
}

/** The cache key of an app's published agent (its streamId) or of its draft. */
const cacheKeyOf = (streamId: string, target: TrainingTarget): string =>
  target === 'draft' ? `${streamId}#draft` : streamId;
