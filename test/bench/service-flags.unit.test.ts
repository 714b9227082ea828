/**
 * The benchmarks start the service with the node flags production uses: the ones `npm start` gives.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVICE_NODE_FLAGS } from '../../bench/lib/child-service.js';

const scripts = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

describe('service node flags', () => {
  it('when the bench starts the service, then it passes exactly the node flags of the start script', () => {
    const start = scripts.start!.split(/\s+/);
    const startFlags = start.filter((a) => a.startsWith('--'));
    expect(startFlags).toEqual(SERVICE_NODE_FLAGS);
    expect(start[start.length - 1]).toBe('dist/main.js');
  });
});
