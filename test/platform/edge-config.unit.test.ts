/**
 * The edge's security settings: who is never limited for wrong admin tokens, who reads /metrics.
 * Bad values stop the start with the variable named; good ones reach the Config as lists.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/platform/index.js';

const base = { ADMIN_TOKEN: 'test-admin-token-0123456789' };

describe('the edge security settings', () => {
  it('when nothing is set, then no network is trusted, /metrics is loopback-only and has no token', () => {
    const c = loadConfig(base);
    expect(c.adminTrustedNetworks).toEqual([]);
    expect(c.metricsNetworks).toEqual(['127.0.0.0/8', '::1/128']);
    expect(c.metricsToken).toBeUndefined();
  });

  it('when subnets and a metrics token are given, then they are kept as lists', () => {
    const c = loadConfig({
      ...base,
      ADMIN_TRUSTED_NETWORKS: '10.0.0.0/8, fd00::/8,192.0.2.7',
      METRICS_NETWORKS: '10.1.0.0/16',
      METRICS_TOKEN: 'metrics-token-0123456789',
    });
    expect(c.adminTrustedNetworks).toEqual(['10.0.0.0/8', 'fd00::/8', '192.0.2.7']);
    expect(c.metricsNetworks).toEqual(['10.1.0.0/16']);
    expect(c.metricsToken).toBe('metrics-token-0123456789');
  });

  it.each([
    ['ADMIN_TRUSTED_NETWORKS', 'loopback'],
    ['ADMIN_TRUSTED_NETWORKS', '10.0.0.0/33'],
    ['METRICS_NETWORKS', 'example.com'],
    ['METRICS_TOKEN', 'short'],
  ])('when %s is %s, then the start stops naming it', (name, value) => {
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(new RegExp(name));
  });
});
