import { defineConfig } from 'vitest/config';

/**
 * Four projects, chosen by what each test file imports (files stay where they are):
 * - unit: pure code. No store but the memory one, no HTTP server, no child process, no Redis, so
 *   it does not run the global setup.
 * - integration: the HTTP API and the stores (memory, Redis, Redis Cluster). Any test file not
 *   listed in another project lands here, the safe default for a new file.
 * - e2e: whole calls, through the terminal caller (sandbox/) or the test IVR browser.
 * - reliability: faults, several gateway processes, redis-server processes, bench child processes.
 * - console: the operator console in a real headless Chromium, and its built bundle (the global
 *   setup builds it when stale); skipped loudly without Chromium unless REQUIRE_BROWSER=1.
 * `npm test` runs all five; `npm run test:<project>` runs one.
 */
const unit = [
  'test/agent/**/*.test.ts',
  'test/vxml/**/*.test.ts',
  'test/bench/service-flags.test.ts',
  'test/connections/endpoint-guard.test.ts',
  'test/connections/payload-template.test.ts',
  'test/history/history-layout.test.ts',
  'test/ivr/call-session-repository.test.ts',
  'test/ivr/dtmf-beside-transcription.test.ts',
  'test/ivr/store-retry-pause.test.ts',
  'test/inspector/schema-check-files.test.ts',
  'test/platform/config.test.ts',
  'test/platform/jwt-verify.test.ts',
  'test/platform/json-shape-scan.test.ts',
  'test/platform/edge-config.test.ts',
  'test/platform/audit-diff.test.ts',
  'test/sandbox-caller/expressions-and-grammars.test.ts',
  'test/sandbox-caller/transcript.test.ts',
  'test/console/unit/**/*.test.ts',
];

const e2e = [
  'test/ivr/**/*.test.ts',
  'test/sandbox-caller/caller-behaviour.test.ts',
  'test/sandbox-caller/cli.test.ts',
  'test/sandbox-caller/readme-runs.test.ts',
  'test/security/secrets-leak.test.ts',
];

const reliability = ['test/reliability/**/*.test.ts', 'test/bench/bench-smoke.test.ts', 'test/security/edge-flood.test.ts'];

const consoleBrowser = ['test/console/browser/**/*.test.ts'];

/** Decides whether Redis suites run, starts the local Redis Cluster, gives each run its key prefix. */
const redisSetup = ['test/helpers/global-setup.ts'];
/** Decides whether the reference deployment's suite (HAProxy) runs. */
const haproxySetup = ['test/helpers/haproxy-setup.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default'],
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text-summary', 'lcov'],
      reportsDirectory: 'coverage',
      // the figures are worth reading even while a test fails
      reportOnFailure: true,
    },
    projects: [
      { extends: true, test: { name: 'unit', include: unit } },
      {
        extends: true,
        test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: [...unit, ...e2e, ...reliability, ...consoleBrowser], globalSetup: redisSetup },
      },
      { extends: true, test: { name: 'e2e', include: e2e, exclude: unit, globalSetup: redisSetup } },
      { extends: true, test: { name: 'reliability', include: reliability, globalSetup: [...redisSetup, ...haproxySetup] } },
      { extends: true, test: { name: 'console', include: consoleBrowser, globalSetup: ['test/console/browser/build-console-setup.ts'], testTimeout: 120_000, hookTimeout: 120_000 } },
    ],
  },
});
