/**
 * The in-process caches of the IVR channel and settings, made by the composition root (lru-cache,
 * bounds and time to live from the config, hits and misses on /metrics) and handed to the settings
 * service and the webhook (src/ivr), which share them. Each saves work on every turn:
 * the per-app records a store read each (channel, settings, app record: read one after the other
 * before the turn can start), a verified channel token its signature check. (The intent grammar
 * is no cache: it is prepared with the compiled agent.)
 */
import type { LRUCache } from 'lru-cache';
import type { VerifiedTokenCache } from '../platform/index.js';
import type { IvrChannel } from './ivr-repository.js';
import type { IvrSettings } from './ivr-settings-schema.js';

export interface IvrCaches {
  /** Channel by app (kept for the time to live; this instance forgets it when it changes it). */
  channels: LRUCache<string, Promise<IvrChannel | null>>;
  /** IVR settings by app (as channels). */
  settings: LRUCache<string, Promise<IvrSettings>>;
  /** The app's id and language by app (as channels). */
  apps: LRUCache<string, Promise<{ streamId: string; language: string } | null>>;
  /** Channel tokens already verified (a webhook sends the same token on every turn). */
  verifiedTokens: VerifiedTokenCache;
}

/** The cached read of `key`, else `load()`, kept until its time to live ends unless it fails. */
export function readThrough<V>(
  cache: LRUCache<string, Promise<V>>,
  key: string,
  load: () => Promise<V>,
): Promise<V> {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = load();
  cache.set(key, value);
  value.catch(() => {
    if (cache.peek(key) === value) cache.delete(key);
  });
  return value;
}
