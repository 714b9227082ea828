/**
 * Decides once per run of the reliability project whether the reference deployment's suite
 * (deploy/, HAProxy in front of three instances) runs: without a `haproxy` binary on PATH it is
 * skipped with a loud notice, and with REQUIRE_HAPROXY=1 (CI sets it) the run fails instead.
 */
import { spawnSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { notice } from './global-setup.js';

export default function setup(project: TestProject): void {
  const ok = spawnSync('haproxy', ['-v'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
  if (!ok && process.env.REQUIRE_HAPROXY === '1') {
    throw new Error('REQUIRE_HAPROXY=1 but no haproxy binary on PATH: install it (apt-get install haproxy)');
  }
  if (!ok)
    notice(
      'No haproxy binary: the reference deployment suite (deploy/) is SKIPPED (apt-get install haproxy; REQUIRE_HAPROXY=1 fails instead)',
    );
  project.provide('haproxyAvailable', ok);
}

declare module 'vitest' {
  export interface ProvidedContext {
    haproxyAvailable: boolean;
  }
}
