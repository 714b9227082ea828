/**
 * The in-process caches made in compose.ts count their lookups on /metrics, so an operator sees
 * whether each one is earning its keep.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall, spokenOf } from '../helpers/ivr-call.js';
import type { Store } from '../../src/store/index.js';

const CACHES = ['agents', 'ivr_channels', 'ivr_settings', 'ivr_apps', 'history_sessions', 'verified_tokens'];

/** Hits and misses by cache name, as /metrics shows them. */
async function cacheCounts(gw: RunningGateway): Promise<Record<string, { hits: number; misses: number }>> {
  const text = await (await fetch(`${gw.url}/metrics`)).text();
  const out: Record<string, { hits: number; misses: number }> = {};
  for (const m of text.matchAll(/^ivr_cache_(hits|misses)_total\{cache="([a-z_]+)"\} (\d+)$/gm)) {
    const entry = (out[m[2]!] ??= { hits: 0, misses: 0 });
    entry[m[1] as 'hits' | 'misses'] = Number(m[3]);
  }
  return out;
}

describeEachStore('in-process caches on /metrics', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    app = await setupIvrApp(gw);
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  it('when a fresh instance has served no turn, then /metrics lists every cache with no hits and no misses', async () => {
    const other = await startGateway({ store, config: { masterKey: gw.config.masterKey } });
    try {
      const counts = await cacheCounts(other);
      for (const name of CACHES) expect(counts[name], name).toEqual({ hits: 0, misses: 0 });
    } finally {
      await other.close();
    }
  });

  it('when two calls take turns on another instance of the same store, then /metrics shows hits and misses for each cache', async () => {
    // the same sealing key as the first instance; a time to live no slow machine outlasts between turns
    const other = await startGateway({
      store,
      config: { masterKey: gw.config.masterKey, cacheTtlMs: 60_000 },
    });
    try {
      for (let i = 0; i < 2; i++) {
        const call = new IvrCall(other, app.webhookUrl.replace(gw.url, other.url));
        expect(spokenOf(await call.start())).toContain("Welcome to Luigi's");
        expect(spokenOf(await call.say('i want to book a table'))).toContain('For how many people?');
      }
      const counts = await cacheCounts(other);
      for (const name of CACHES) {
        expect(counts[name]?.misses, `${name} misses`).toBeGreaterThan(0);
        expect(counts[name]?.hits, `${name} hits`).toBeGreaterThan(0);
      }
    } finally {
      await other.close();
    }
  });
});
