/**
 * Writes test/file-timings.json, the record of how long each test file took, from a vitest JSON
 * report of a full run; the longest-first sequencer (longest-first-sequencer.ts) reads it to order a
 * fresh clone's run. Refresh it when files were added or got much slower or faster:
 *
 *   npm test -- --reporter=default --reporter=json --outputFile=/tmp/report.json
 *   npm run test:timings -- /tmp/report.json
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { TIMINGS_FILE } from './longest-first-sequencer.js';

interface JsonReport {
  testResults: Array<{ name: string; startTime: number; endTime: number }>;
}

function writeFileTimings(reportPath: string, out = TIMINGS_FILE): number {
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as JsonReport;
  const root = join(out, '..', '..');
  const rows = report.testResults
    .map((r) => [relative(root, r.name), Math.round((r.endTime - r.startTime) / 100) / 10] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  writeFileSync(out, `${JSON.stringify(Object.fromEntries(rows), null, 2)}\n`);
  return rows.length;
}

const report = process.argv[2];
if (!report) {
  console.error('usage: npm run test:timings -- REPORT.json (a vitest JSON report of a full run)');
  process.exit(2);
}
console.log(`${writeFileTimings(report)} files' timings written to ${relative(process.cwd(), TIMINGS_FILE)}`);
