import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { longestFirst, readTimings, TIMINGS_FILE } from './helpers/longest-first-sequencer.js';

const file = (name: string, groupOrder: number, seconds: number, isolated = true) => ({
  name,
  groupOrder,
  seconds,
  isolated,
});

describe('the longest-first order of test files', () => {
  it('when files of several projects share a group, then the longest of any of them starts first and the groups keep their order', () => {
    const order = longestFirst([
      file('browser-short', 1, 5),
      file('integration-long', 0, 23),
      file('load', 2, 60),
      file('reliability-idle-feed', 1, 61),
      file('e2e-short', 0, 2),
      file('browser-long', 1, 34),
    ]).map((f) => f.name);
    expect(order).toEqual([
      'integration-long',
      'e2e-short',
      'reliability-idle-feed',
      'browser-long',
      'browser-short',
      'load',
    ]);
  });

  it('when a group holds files that share workers (no isolation), then they come after its isolated ones', () => {
    const order = longestFirst([file('unit', 0, 9, false), file('integration', 0, 1)]).map((f) => f.name);
    expect(order).toEqual(['integration', 'unit']);
  });

  it('when the record is missing or unreadable, then no file has a recorded time', () => {
    const dir = mkdtempSync(join(tmpdir(), 'timings-'));
    expect(readTimings(join(dir, 'absent.json'))).toEqual({});
    writeFileSync(join(dir, 'broken.json'), '{');
    expect(readTimings(join(dir, 'broken.json'))).toEqual({});
  });

  it('when the committed record is read, then it gives seconds for test files by their path from the root', () => {
    const timings = readTimings(TIMINGS_FILE);
    expect(Object.keys(timings).length).toBeGreaterThan(100);
    for (const [path, seconds] of Object.entries(timings)) {
      expect(path).toMatch(/^test\/.+\.test\.ts$/);
      expect(seconds).toBeGreaterThanOrEqual(0);
    }
  });
});
