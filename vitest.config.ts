import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/helpers/longest-first-sequencer.js';

/**
 * Six projects, chosen by each test file's suffix, so a new file says where it runs:
 * - `*.unit.test.ts`: pure code. No store but the memory one, no HTTP server, no child process, no
 *   Redis; runs without the global setup and without isolation between files (pure code keeps no
 *   state between them), which makes `npm run test:unit` the fast loop.
 * - `*.integration.test.ts`: the HTTP API and the stores (memory, Redis, Redis Cluster, embedded).
 * - `*.e2e.test.ts`: whole calls, through the terminal caller (sandbox/) or the test IVR browser.
 * - `*.reliability.test.ts`: faults, several gateway processes, redis-server processes, benches.
 * - `*.load.test.ts`: a tenant's latency under another client's load, against a baseline of the
 *   same run (a p99 ratio): run last, one file at a time, so that only the load they make is measured.
 * - `*.browser.test.ts`: the operator console in a real headless Chromium, and its built bundle
 *   (the global setup builds it when stale); skipped loudly without Chromium unless REQUIRE_BROWSER=1.
 * A test file without one of these suffixes fails the run (test/test-layout.unit.test.ts).
 * `npm test` runs all six; `npm run test:<project>` runs one.
 */
const projectOf = (name: string) => `test/**/*.${name}.test.ts`;

/**
 * Three groups, one after the other, each starting its longest files first whatever their project
 * (test/helpers/longest-first-sequencer.ts, from the committed record test/file-timings.json), so
 * that no long file starts last. First unit, integration and e2e, one more file at a time than the
 * machine has cores (much of their time is spent waiting on servers and Redis, not computing).
 * Then reliability and browser, also one more than the cores: they kill processes and wait on
 * timeouts, or drive Chromium, and run after the first group, whose load would only add noise to
 * their timeouts. Last the load suites, one file at a time: each compares a p99 with a baseline of
 * its own run, which any neighbour would skew.
 */
const busy = { maxWorkers: availableParallelism() + 1, sequence: { groupOrder: 0 } };
const quiet = { maxWorkers: availableParallelism() + 1, sequence: { groupOrder: 1 } };
const alone = { maxWorkers: 1, sequence: { groupOrder: 2 } };

/** Decides whether Redis suites run, starts the local Redis Cluster, gives each run its key prefix. */
const redisSetup = ['test/helpers/global-setup.ts'];
/** Decides whether the reference deployment's suite (HAProxy) runs. */
const haproxySetup = ['test/helpers/haproxy-setup.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    sequence: { sequencer: LongestFirstSequencer },
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
      { extends: true, test: { name: 'unit', include: [projectOf('unit')], isolate: false, ...busy } },
      {
        extends: true,
        test: { name: 'integration', include: [projectOf('integration')], globalSetup: redisSetup, ...busy },
      },
      { extends: true, test: { name: 'e2e', include: [projectOf('e2e')], globalSetup: redisSetup, ...busy } },
      {
        extends: true,
        test: {
          name: 'reliability',
          include: [projectOf('reliability')],
          globalSetup: [...redisSetup, ...haproxySetup],
          ...quiet,
        },
      },
      {
        extends: true,
        test: {
          name: 'load',
          include: [projectOf('load')],
          globalSetup: [...redisSetup, ...haproxySetup],
          ...alone,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: [projectOf('browser')],
          globalSetup: ['test/console/browser/build-console-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          ...quiet,
        },
      },
    ],
  },
});
