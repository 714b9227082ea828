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
import { validateAgentDefinition, type AgentDefinition, type CompiledAgent } from '../agent/index.js';
import { AppError, isoNow, newId, type Logger, type RateLimiter } from '../platform/index.js';
import { storeKeys, type Store } from '../store/index.js';
import type { AgentStatus } from './admin-schemas.js';
import { checkAgentLimits, type AgentLimits } from './agent-limits.js';
import { AgentTrainer, rawHashOf, versionOf, type TrainingTarget } from './agent-training.js';
import type { TrainingPool } from './training-pool.js';
import { VersionLog, type VersionRecord } from './version-log.js';
import { agentKeys, CompiledAgents, type AgentCacheEntry } from './compiled-agents.js';
import { agentStatusOf } from './agent-status.js';

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

export type { AgentCacheEntry } from './compiled-agents.js';

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
  private readonly compiled: CompiledAgents;
  private readonly training: AgentTrainer;
  readonly versions: VersionLog;

  constructor(private readonly opts: AgentRegistryOptions) {
    this.compiled = new CompiledAgents({
      store: opts.store,
      cache: opts.cache,
      trainer: opts.trainer,
      logger: opts.logger,
      recheckMs: opts.recheckMs ?? 2_000,
      takeOver: (streamId) => this.takeOver(streamId),
    });
    this.versions = new VersionLog(opts.store, {
      index: storeKeys.agentVersions,
      doc: storeKeys.agentVersion,
    });
    this.training = new AgentTrainer(
      opts.store,
      opts.trainer,
      opts.logger,
      (streamId, version, agent, target) => this.compiled.keep(streamId, target, version, agent),
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
    const keys = agentKeys(streamId);
    // the live definition's version and hash only: its JSON (up to AGENT_MAX_BYTES) is read when needed
    const [live, liveRaw, upload, trainingHeld] = await Promise.all([
      this.opts.store.hget(keys.definition, 'version').then((v) => v ?? undefined),
      this.opts.store.hget(keys.definition, 'raw').then((v) => v ?? undefined),
      this.opts.store.hgetall(keys.upload),
      this.opts.store.exists(keys.lock),
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
    const draft = await this.opts.store.hget(keys.draft, 'version');
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
        await this.opts.store.atomic([
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
    const def = await this.opts.store.hgetall(agentKeys(streamId).definition);
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
    const keys = agentKeys(streamId);
    this.opts.trainer.admit(streamId);
    const token = newId('tr');
    const since = isoNow();
    const { version, json, raw, target, clearDraft } = job;
    await this.opts.store.atomic([
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
    const keys = agentKeys(streamId);
    const [live, draft, saved] = await Promise.all([
      this.opts.store.hget(keys.definition, 'version'),
      this.opts.store.hgetall(keys.draft),
      this.versions.get(streamId, version),
    ]);
    if (!saved)
      throw AppError.notFound(
        `The agent has no saved version ${version} (it was never saved, or is past the retention)`,
      );
    if (live === version) return { status: (await this.status(streamId))!, trained: true };
    const draftModel = draft.version === version ? await this.opts.store.get(keys.draftModel) : null;
    if (draft.version === version && draftModel && draft.json) {
      const done = await this.opts.store.atomic(
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
      this.compiled.promoteDraft(streamId, version);
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
    const keys = agentKeys(streamId);
    const [list, published, draft] = await Promise.all([
      this.versions.list(streamId),
      this.opts.store.hget(keys.definition, 'version'),
      this.opts.store.hget(keys.draft, 'version'),
    ]);
    return {
      versions: list.map((v) => ({ ...v, published: v.version === published, draft: v.version === draft })),
      published,
      draft,
    };
  }

  /** The published version's id (null before a first one is live). */
  published(streamId: string): Promise<string | null> {
    return this.opts.store.hget(agentKeys(streamId).definition, 'version');
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
    const keys = agentKeys(streamId);
    this.training.abort(streamId);
    const drop = [keys.upload, keys.uploadDefinition, keys.lock].map((key) => ({ op: 'del' as const, key }));
    await this.opts.store.atomic(drop, [{ key: keys.upload, hashField: 'version', equals: upload.version }]);
  }

  /** The latest accepted definition (the one training, or that failed to train, else the draft, else the live one). */
  async getDefinition(streamId: string): Promise<AgentDefinition | null> {
    const keys = agentKeys(streamId);
    const json =
      (await this.opts.store.get(keys.uploadDefinition)) ??
      (await this.opts.store.hget(keys.draft, 'json')) ??
      (await this.opts.store.hget(keys.definition, 'json'));
    return json ? (JSON.parse(json) as AgentDefinition) : null;
  }

  /** Which version is live and how the latest upload stands; null when the app has no agent. */
  async status(streamId: string): Promise<AgentStatus | null> {
    const keys = agentKeys(streamId);
    const [live, liveSince, upload, draft] = await Promise.all([
      this.opts.store.hget(keys.definition, 'version'),
      this.opts.store.hget(keys.definition, 'since'),
      this.opts.store.hgetall(keys.upload),
      this.opts.store.hget(keys.draft, 'version'),
    ]);
    if (upload.version && upload.state === 'training') this.takeOver(streamId);
    return agentStatusOf({ live, liveSince, upload, draft });
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
      const draft = await this.compiled.entry(streamId, 'draft');
      if (draft) return { agent: await draft.agent, version: draft.version, from: 'draft' };
    }
    const live = await this.compiled.entry(streamId, 'live');
    return live ? { agent: await live.agent, version: live.version, from: 'published' } : null;
  }

  forget(streamId: string): void {
    this.compiled.forget(streamId);
    this.training.abort(streamId);
  }

  /** Stops training (another instance takes the uploads in progress over) and ends the threads. */
  stop(): Promise<void> {
    return this.training.stop();
  }

  private takeOver(streamId: string): void {
    this.training
      .takeOver(streamId)
      .catch((err: unknown) =>
        this.opts.logger.warn({ err, streamId }, 'could not take over an agent training'),
      );
  }
}
