/**
 * The pre-scan that holds a JSON body's entry count and depth before JSON.parse: it counts exactly
 * the object keys and array elements JSON.parse would build (checked against the parsed value for
 * generated JSON of every shape), is not fooled by brackets, colons, commas or escaped quotes inside
 * strings, and stops at the first entry or level past its limit.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonShapeScan } from '../../src/platform/http/json-shape-scan.js';

const bytes = (text: string) => Buffer.from(text);

/** Keys plus array elements, and the deepest nesting, of a parsed value. */
function shapeOf(value: unknown, depth = 0): { entries: number; depth: number } {
  if (value === null || typeof value !== 'object') return { entries: 0, depth };
  const children = Object.values(value);
  let entries = children.length;
  let deepest = depth + 1;
  for (const c of children) {
    const s = shapeOf(c, depth + 1);
    entries += s.entries;
    deepest = Math.max(deepest, s.depth);
  }
  return { entries, depth: deepest };
}

describe('the JSON shape pre-scan', () => {
  it('when JSON of any shape is scanned, then its count and depth are those of the parsed value', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 6 }), fc.constantFrom('', ' ', '\n\t '), (text, space) => {
        const spaced = JSON.stringify(JSON.parse(text), null, space || undefined);
        const { entries, depth } = shapeOf(JSON.parse(spaced));
        expect(
          jsonShapeScan(bytes(spaced), { maxEntries: entries, maxDepth: Math.max(depth, 1) }),
        ).toBeNull();
        if (entries > 0)
          expect(jsonShapeScan(bytes(spaced), { maxEntries: entries - 1, maxDepth: 64 })).toEqual({
            kind: 'entries',
            limit: entries - 1,
          });
        if (depth > 1)
          expect(jsonShapeScan(bytes(spaced), { maxEntries: 1e9, maxDepth: depth - 1 })).toEqual({
            kind: 'depth',
            limit: depth - 1,
          });
      }),
      { numRuns: 300 },
    );
  });

  it('when strings hold brackets, colons, commas and escaped quotes, then they count for nothing', () => {
    const text = JSON.stringify({ a: '{[:,]}\\"{', b: ['x\\"y,z', ':'] });
    expect(jsonShapeScan(bytes(text), { maxEntries: 4, maxDepth: 2 })).toBeNull();
    expect(jsonShapeScan(bytes(text), { maxEntries: 3, maxDepth: 2 })).toEqual({ kind: 'entries', limit: 3 });
  });

  it('when a body has 45,000 keys or nests 100,000 levels, then the scan stops at the first one past the limit', () => {
    const keys = `{${Array.from({ length: 45_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
    expect(jsonShapeScan(bytes(keys), { maxEntries: 100, maxDepth: 64 })).toEqual({
      kind: 'entries',
      limit: 100,
    });
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(jsonShapeScan(bytes(deep), { maxEntries: 1e9, maxDepth: 64 })).toEqual({
      kind: 'depth',
      limit: 64,
    });
    expect(jsonShapeScan(bytes('[[], {}, [[]]]'), { maxEntries: 4, maxDepth: 3 })).toBeNull();
    expect(jsonShapeScan(bytes('[[], {}, [[]]]'), { maxEntries: 3, maxDepth: 3 })).toEqual({
      kind: 'entries',
      limit: 3,
    });
  });
});
