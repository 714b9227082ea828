/**
 * Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by area (a package under
 * node_modules, a file under src/, node internals, GC), and inclusive time of the project's own
 * functions. Shares are of the busy time (idle excluded).
 *
 *   npx tsx bench/lib/cpu-profile-summary.ts <file.cpuprofile> [top=15] [lastMs]
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Share {
  name: string;
  ms: number;
  pct: number;
}

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  selfByFunction: Share[];
  selfByArea: Share[];
  inclusiveOwnCode: Share[];
}

/** The service's own code, run from its sources (tsx) or from its build (`BENCH_ENTRY=dist/main.js`). */
const SERVICE_CODE = /\/(src|dist)\//;

/** Where a frame's code lives: `pkg:<name>`, `src/<file>` (or `dist/`, `bench/`, `test/`), `node:internal`, or the V8 pseudo-frame. */
export function areaOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `pkg:${pkg[1]}`;
  const own = /\/((?:src|dist|bench|test)\/.*)$/.exec(url);
  if (own) return own[1]!;
  if (url.startsWith('node:')) return 'node:internal';
  return url;
}

const short = (url: string) => url.replace(/^file:\/\/.*?\/(node_modules|src|dist|bench|test)\//, '$1/');
const keyOf = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

function top(map: Map<string, number>, busy: number, n: number): Share[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => ({ name, ms: +(us / 1000).toFixed(1), pct: +((100 * us) / busy).toFixed(1) }));
}

/** `lastMs`: only the samples of the last lastMs of the profile (e.g. the load, not the start-up). */
export function summarizeProfile(profile: Profile, n = 15, lastMs = Infinity): ProfileSummary {
  const byId = new Map<number, ProfileNode>(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const self = new Map<number, number>();
  const from = profile.endTime - lastMs * 1000;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (t >= from) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });

  let idle = 0;
  let busy = 0;
  const fnSelf = new Map<string, number>();
  const areaSelf = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const key = keyOf(node);
    fnSelf.set(key, (fnSelf.get(key) ?? 0) + us);
    const area = areaOf(node.callFrame.url, node.callFrame.functionName);
    areaSelf.set(area, (areaSelf.get(area) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)!;
      if (!SERVICE_CODE.test(frame.callFrame.url) || /node_modules/.test(frame.callFrame.url)) continue;
      const k = keyOf(frame);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  }
  return {
    busyMs: +(busy / 1000).toFixed(1),
    idleMs: +(idle / 1000).toFixed(1),
    selfByFunction: top(fnSelf, busy, n),
    selfByArea: top(areaSelf, busy, n),
    inclusiveOwnCode: top(inclusive, busy, n),
  };
}

export const readProfile = (file: string): Profile => JSON.parse(readFileSync(file, 'utf8')) as Profile;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: tsx bench/lib/cpu-profile-summary.ts <file.cpuprofile> [top] [lastMs]\n');
    process.exit(2);
  }
  const s = summarizeProfile(
    readProfile(file),
    Number(process.argv[3] ?? 15),
    Number(process.argv[4] ?? Infinity),
  );
  const table = (title: string, rows: Share[]) =>
    `${title}\n${rows.map((r) => `  ${String(r.pct).padStart(5)}%  ${String(r.ms).padStart(9)} ms  ${r.name}`).join('\n')}\n`;
  process.stdout.write(`busy ${s.busyMs} ms, idle ${s.idleMs} ms\n`);
  process.stdout.write(table('self time by area', s.selfByArea));
  process.stdout.write(table('self time by function', s.selfByFunction));
  process.stdout.write(table('inclusive time, own code', s.inclusiveOwnCode));
}
