import { describe, expect, it } from 'vitest';
import { summarizeProfile } from '../../bench/lib/cpu-profile-summary.js';

/** A profile of one stack, root → outer → inner, that spends every sample in `inner`. */
function oneStack(dir: 'src' | 'dist') {
  const url = (file: string) => `file:///work/app/${dir}/${file}`;
  return {
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: 0 }, children: [2] },
      { id: 2, callFrame: { functionName: 'outer', url: url('ivr/outer.js'), lineNumber: 9 }, children: [3] },
      { id: 3, callFrame: { functionName: 'inner', url: url('vxml/inner.js'), lineNumber: 4 } },
    ],
    startTime: 0,
    endTime: 4_000,
    samples: [3, 3, 3, 3],
    timeDeltas: [1_000, 1_000, 1_000, 1_000],
  };
}

describe('summarizeProfile', () => {
  it.each(['src', 'dist'] as const)(
    'when the service runs from %s/, then its own functions get their inclusive time',
    (dir) => {
      const s = summarizeProfile(oneStack(dir), 10);
      expect(s.busyMs).toBe(4);
      const rows = s.inclusiveOwnCode.map((r) => [r.name.split(' ')[0], r.pct]);
      expect(rows.sort()).toEqual([
        ['inner', 100],
        ['outer', 100],
      ]);
    },
  );
});
