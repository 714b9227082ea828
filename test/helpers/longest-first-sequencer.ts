/**
 * Orders the test files so that each group of projects (vitest.config.ts) starts its longest files
 * first, whichever project they belong to: the group's workers then finish together instead of
 * waiting on one long file that started last (a 61 s idle feed started last was the reliability
 * group's tail). vitest's own order runs a group's projects one after the other by name and, on a
 * machine that never ran the suite (CI's fresh clone), each project's files by size.
 *
 * How long a file takes is, in this order: vitest's cache of this machine's earlier runs, the
 * committed record of a full run (test/file-timings.json, written by `npm run test:timings` from a
 * JSON report), or, for a file neither knows yet, an estimate from its size (about 1 s per 2 KB,
 * enough to place it). A wrong figure only changes the order, never what runs.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Where the committed record is, and the root its paths are relative to. */
export const TIMINGS_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'file-timings.json');
const ROOT = join(dirname(TIMINGS_FILE), '..');

/** A test file as the order sees it. */
export interface PlannedFile {
  groupOrder: number;
  /** Files of a project without isolation share workers: they go after the others of their group. */
  isolated: boolean;
  /** Expected seconds. */
  seconds: number;
}

/** Group by group; in a group, isolated files before shared ones, then the longest first. */
export function longestFirst<T extends PlannedFile>(files: readonly T[]): T[] {
  return [...files].sort(
    (a, b) => a.groupOrder - b.groupOrder || Number(b.isolated) - Number(a.isolated) || b.seconds - a.seconds,
  );
}

/** The committed record: seconds per file, by path from the repository's root ({} when absent). */
export function readTimings(file = TIMINGS_FILE): Record<string, number> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

const SECONDS_PER_BYTE = 1 / 2048;

export class LongestFirstSequencer extends BaseSequencer {
  private readonly timings = readTimings();

  override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
    const planned = specs.map((spec) => {
      const path = relative(ROOT, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`)?.duration;
      const seconds =
        cached !== undefined ? cached / 1000 : (this.timings[path] ?? sizeEstimate(spec.moduleId));
      return {
        spec,
        groupOrder: spec.project.config.sequence.groupOrder,
        isolated: spec.project.config.isolate !== false,
        seconds,
      };
    });
    return longestFirst(planned).map((p) => p.spec);
  }
}

function sizeEstimate(path: string): number {
  try {
    return statSync(path).size * SECONDS_PER_BYTE;
  } catch {
    return 0;
  }
}
