/**
 * The compiled agents this instance answers turns with, per app and audience (published or draft):
 * kept in the cache the composition root hands in, their version re-checked at most every
 * `recheckMs`; a newer version is loaded in the background (its stored model imported, or trained
 * again when missing or stale) while the one kept answers.
 */
import type { LRUCache } from 'lru-cache';
import { IntentModelError, loadCompiledAgent, type CompiledAgent } from '../agent/index.js';
import { AppError, type Logger } from '../platform/index.js';
import { storeKeys, type Store } from '../store/index.js';
import type { TrainingTarget } from './agent-training.js';
import type { TrainingPool } from './training-pool.js';

/** A compiled agent as kept, with the version it was compiled from and when that was last checked. */
export interface AgentCacheEntry {
  version: string;
  checkedAt: number;
  agent: Promise<CompiledAgent>;
  /** A newer live version being loaded while this one keeps answering. */
  loading?: string;
}

/** The store keys of an app's agent. */
export function agentKeys(streamId: string) {
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

/** The cache key of an app's published agent (its streamId) or of its draft. */
const cacheKeyOf = (streamId: string, target: TrainingTarget): string =>
  target === 'draft' ? `${streamId}#draft` : streamId;

export interface CompiledAgentsDeps {
  store: Store;
  cache: LRUCache<string, AgentCacheEntry>;
  trainer: TrainingPool;
  logger: Logger;
  recheckMs: number;
  /** Called when an upload of the app is found training: this instance may take it over. */
  takeOver: (streamId: string) => void;
}

export class CompiledAgents {
  constructor(private readonly d: CompiledAgentsDeps) {}

  /** Keeps a compiled agent as the app's current one for its audience (a training just ended here). */
  keep(streamId: string, target: TrainingTarget, version: string, agent: CompiledAgent): void {
    this.d.cache.set(cacheKeyOf(streamId, target), {
      version,
      checkedAt: Date.now(),
      agent: Promise.resolve(agent),
    });
  }

  /** The draft `version` was published: its compiled agent answers calls here at once (others load it on their next check). */
  promoteDraft(streamId: string, version: string): void {
    const compiled = this.d.cache.get(cacheKeyOf(streamId, 'draft'));
    if (compiled?.version === version)
      this.d.cache.set(streamId, { version, checkedAt: Date.now(), agent: compiled.agent });
    this.d.cache.delete(cacheKeyOf(streamId, 'draft'));
  }

  forget(streamId: string): void {
    this.d.cache.delete(streamId);
    this.d.cache.delete(cacheKeyOf(streamId, 'draft'));
  }

  /** The cache entry of the app's live (or draft) agent, loaded or refreshed as needed; null when there is none. */
  async entry(streamId: string, target: TrainingTarget): Promise<AgentCacheEntry | null> {
    const now = Date.now();
    const cacheKey = cacheKeyOf(streamId, target);
    const hit = this.d.cache.get(cacheKey);
    if (hit && now - hit.checkedAt < this.d.recheckMs) return hit;
    const keys = agentKeys(streamId);
    const [version, uploadState] = await Promise.all([
      this.d.store.hget(target === 'draft' ? keys.draft : keys.definition, 'version'),
      this.d.store.hget(keys.upload, 'state'),
    ]);
    if (uploadState === 'training') this.d.takeOver(streamId);
    if (!version) {
      this.d.cache.delete(cacheKey);
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
    this.d.cache.set(cacheKey, entry);
    entry.agent.catch(() => {
      if (this.d.cache.get(cacheKey) === entry) this.d.cache.delete(cacheKey);
    });
    return entry;
  }

  /** Loads a newer live version in the background; `old` answers until it is ready. */
  private refresh(streamId: string, target: TrainingTarget, version: string, old: AgentCacheEntry): void {
    old.loading = version;
    const cacheKey = cacheKeyOf(streamId, target);
    this.load(streamId, target).then(
      (loaded) => {
        if (this.d.cache.get(cacheKey) === old)
          this.d.cache.set(cacheKey, {
            version: loaded.version,
            checkedAt: Date.now(),
            agent: Promise.resolve(loaded.agent),
          });
      },
      (err: unknown) => {
        old.loading = undefined;
        this.d.logger.warn(
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
    const keys = agentKeys(streamId);
    const defKey = target === 'draft' ? keys.draft : keys.definition;
    const modelKey = target === 'draft' ? keys.draftModel : keys.model;
    const [def, model] = await Promise.all([this.d.store.hgetall(defKey), this.d.store.get(modelKey)]);
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
    const trained = await this.d.trainer.train(def.json, undefined, streamId);
    await this.d.store.atomic(
      [{ op: 'set', key: modelKey, value: trained }],
      [{ key: defKey, hashField: 'version', equals: def.version }],
    );
    return { version: def.version, agent: loadCompiledAgent(definition, trained) };
  }
}
