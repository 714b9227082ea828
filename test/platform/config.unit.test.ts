import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/platform/index.js';

describe('configuration', () => {
  it('when nothing is set, then the defaults apply and an admin token is generated', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      store: 'embedded',
      dataDir: './data',
      dataSyncMs: 1000,
      keyPrefix: 'ivr:',
      turnDeadlineMs: 2500,
      storeRetryBudgetMs: 12_000,
      sessionTtlS: 3600,
      deployment: 'cloud',
      allowPrivateModelEndpoints: false,
    });
    expect(c.adminTokenGenerated).toBe(true);
    expect(c.adminToken.length).toBeGreaterThanOrEqual(24);
  });

  it('when REDIS_URL is set, then the Redis store is selected (and MASTER_KEY is required)', () => {
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(/MASTER_KEY/);
    const c = loadConfig({
      REDIS_URL: 'redis://127.0.0.1:6379',
      MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    });
    expect(c.store).toBe('redis');
  });

  it('when values are bad, then one error names every bad variable', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        MASTER_KEY: 'short',
        DEPLOYMENT: 'moon',
        TURN_DEADLINE_MS: '5',
        KEY_PREFIX: 'a{b}',
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const msg = (err as Error).message;
      for (const v of ['PORT', 'MASTER_KEY', 'DEPLOYMENT', 'TURN_DEADLINE_MS', 'KEY_PREFIX'])
        expect(msg).toContain(v);
    }
  });

  it('when STORE_RETRY_BUDGET_MS is set, then turns retry store faults that long; a negative or non-numeric value is refused', () => {
    expect(loadConfig({ STORE_RETRY_BUDGET_MS: '20000' }).storeRetryBudgetMs).toBe(20_000);
    for (const bad of ['-1', 'soon'])
      expect(() => loadConfig({ STORE_RETRY_BUDGET_MS: bad })).toThrow(/STORE_RETRY_BUDGET_MS/);
  });

  it('when CALL_IDLE_TIMEOUT_S is unset, bad or not below SESSION_TTL_S, then it defaults, or the start stops naming it', () => {
    expect(loadConfig({}).callIdleTimeoutS).toBe(600);
    expect(loadConfig({ CALL_IDLE_TIMEOUT_S: '90' }).callIdleTimeoutS).toBe(90);
    expect(() => loadConfig({ CALL_IDLE_TIMEOUT_S: 'soon' })).toThrow(/CALL_IDLE_TIMEOUT_S/);
    expect(() => loadConfig({ CALL_IDLE_TIMEOUT_S: '2' })).toThrow(/CALL_IDLE_TIMEOUT_S/);
    expect(() => loadConfig({ CALL_IDLE_TIMEOUT_S: '600', SESSION_TTL_S: '600' })).toThrow(
      /CALL_IDLE_TIMEOUT_S: must be less than SESSION_TTL_S/,
    );
  });

  it('when the agent limits and training threads are set, then they are read, with defaults otherwise and bad values named', () => {
    expect(loadConfig({})).toMatchObject({
      agentMaxBytes: '1mb',
      agentMaxIntents: 500,
      agentMaxUtterances: 20_000,
      agentMaxNodes: 1000,
      agentTrainingThreads: 1,
    });
    const c = loadConfig({
      AGENT_MAX_BYTES: '512kb',
      AGENT_MAX_INTENTS: '50',
      AGENT_MAX_UTTERANCES: '900',
      AGENT_MAX_NODES: '60',
      AGENT_TRAINING_THREADS: '2',
    });
    expect(c).toMatchObject({
      agentMaxBytes: '512kb',
      agentMaxIntents: 50,
      agentMaxUtterances: 900,
      agentMaxNodes: 60,
      agentTrainingThreads: 2,
    });
    expect(() => loadConfig({ AGENT_MAX_BYTES: 'huge', AGENT_TRAINING_THREADS: '0' })).toThrow(
      /AGENT_MAX_BYTES[\s\S]*AGENT_TRAINING_THREADS/,
    );
  });

  it('when STORE=memory is forced with a REDIS_URL, then memory wins', () => {
    expect(loadConfig({ STORE: 'memory', REDIS_URL: 'redis://x:1' }).store).toBe('memory');
  });

  it('when TRUST_PROXY names a hop count or the proxies, then express gets that (and a malformed list stops the start)', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'no' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,2001:db8::1' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '2001:db8::1',
    ]);
    for (const bad of ['10.0.0.0/33', 'proxy.example.com', '10.0.0.1/8/2', 'maybe']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('when MEMORY_STORE_MAX_CALLS is unset, then the memory store keeps 10000 calls; a bad value stops the start', () => {
    expect(loadConfig({}).memoryStoreMaxCalls).toBe(10_000);
    expect(loadConfig({ MEMORY_STORE_MAX_CALLS: '500' }).memoryStoreMaxCalls).toBe(500);
    expect(() => loadConfig({ MEMORY_STORE_MAX_CALLS: '0' })).toThrow(/MEMORY_STORE_MAX_CALLS/);
  });

  it('when an OTLP endpoint is set, then telemetry exports to its traces URL; unset, telemetry is off; a bad URL stops the start', () => {
    expect(loadConfig({}).telemetry).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).telemetry).toEqual({
      tracesUrl: 'http://collector:4318/v1/traces',
      serviceName: 'ivr-gateway',
    });
    // the traces endpoint is used as it is, and wins over the base endpoint
    const both = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://otel.example.com/traces',
      OTEL_SERVICE_NAME: 'ivr-eu',
    };
    expect(loadConfig(both).telemetry).toEqual({
      tracesUrl: 'https://otel.example.com/traces',
      serviceName: 'ivr-eu',
    });
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
  });
});
