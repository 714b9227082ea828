import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The vitest project of a test file is the suffix of its name (vitest.config.ts): a file without one
 * would run in no project at all, silently. This keeps every test file in one.
 */
const root = dirname(fileURLToPath(import.meta.url));
const PROJECT_SUFFIX = /\.(unit|integration|e2e|reliability|load|browser)\.test\.ts$/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : testFiles(path);
    return /\.(test|spec)\.[cm]?[jt]sx?$/.test(e.name) ? [relative(root, path)] : [];
  });
}

describe('test layout', () => {
  it('when a test file is in test/, then its name says its project', () => {
    const files = testFiles(root);
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => !PROJECT_SUFFIX.test(f))).toEqual([]);
  });
});
