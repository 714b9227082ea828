/**
 * Stores each app's agent definition with its trained NLU model, and hands out compiled agents.
 * Training happens once when a definition is stored; other instances import the stored model. A
 * compiled agent (training or importing a model takes seconds) is kept per app in the cache the
 * composition root hands in, and its version re-checked at most every `recheckMs`.
 */
import { createHash } from 'node:crypto';
import type { LRUCache } from 'lru-cache';
import { IntentModelError, compileAgent, loadCompiledAgent, validateAgentDefinition, type AgentDefinition, type CompiledAgent } from '../agent/index.js';
import { AppError } from '../platform/index.js';
import { storeKeys, type Store } from '../store/index.js';

/** A compiled agent as kept, with the version it was compiled from and when that was last checked. */
export interface AgentCacheEntry {
  version: string;
  checkedAt: number;
  agent: Promise<CompiledAgent>;
}

/** Checks that need other components (e.g. that a transfer names an imported skill group). */
export type DefinitionCheck = (streamId: string, definition: AgentDefinition) => Promise<Array<{ path: string; msg: string }>>;

export class AgentRegistry {
  constructor(
    private readonly store: Store,
    private readonly cache: LRUCache<string, AgentCacheEntry>,
    private readonly checks: DefinitionCheck[] = [],
    private readonly recheckMs = 2_000,
  ) {}

  /** Validates (400 listing every problem), trains, stores; answers the stored definition. */
  async put(streamId: string, input: unknown): Promise<AgentDefinition> {
    const checked = validateAgentDefinition(input);
    const problems = checked.ok ? (await Promise.all(this.checks.map((c) => c(streamId, checked.definition)))).flat() : checked.problems;
    if (!checked.ok || problems.length) throw AppError.validation(problems.map((p) => ({ msg: p.msg, path: `body${p.path ? `.${p.path}` : ''}` })));
    const agent = await compileAgent(checked.definition);
    const json = JSON.stringify(checked.definition);
    const version = createHash('sha256').update(json).digest('hex').slice(0, 16);
    await this.store.atomic([
      { op: 'hset', key: storeKeys.agentDefinition(streamId), fields: { version, json } },
      { op: 'set', key: storeKeys.agentModel(streamId), value: agent.exportModel() },
    ]);
    this.cache.set(streamId, { version, checkedAt: Date.now(), agent: Promise.resolve(agent) });
    return checked.definition;
  }

  async getDefinition(streamId: string): Promise<AgentDefinition | null> {
    const json = await this.store.hget(storeKeys.agentDefinition(streamId), 'json');
    return json ? (JSON.parse(json) as AgentDefinition) : null;
  }

  /** The compiled agent of an app, or null when none is set. */
  async get(streamId: string): Promise<CompiledAgent | null> {
    const now = Date.now();
    const hit = this.cache.get(streamId);
    if (hit && now - hit.checkedAt < this.recheckMs) return hit.agent;
    const version = await this.store.hget(storeKeys.agentDefinition(streamId), 'version');
    if (!version) {
      this.cache.delete(streamId);
      return null;
    }
    if (hit && hit.version === version) {
      hit.checkedAt = now;
      return hit.agent;
    }
    const agent = this.load(streamId);
    const entry = { version, checkedAt: now, agent };
    this.cache.set(streamId, entry);
    agent.catch(() => {
      if (this.cache.get(streamId) === entry) this.cache.delete(streamId);
    });
    return agent;
  }

  private async load(streamId: string): Promise<CompiledAgent> {
    const [def, model] = await Promise.all([this.store.hget(storeKeys.agentDefinition(streamId), 'json'), this.store.get(storeKeys.agentModel(streamId))]);
    if (!def) throw AppError.notFound('Agent not found');
    const definition = JSON.parse(def) as AgentDefinition;
    if (model) {
      try {
        return loadCompiledAgent(definition, model);
      } catch (err) {
        if (!(err instanceof IntentModelError)) throw err;
        // a model trained from other utterances (e.g. written by an older version): train again
      }
    }
    return compileAgent(definition);
  }

  forget(streamId: string): void {
    this.cache.delete(streamId);
  }
}
