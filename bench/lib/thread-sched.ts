/**
 * The scheduler's account of one thread, from Linux's /proc/<pid>/task/<tid>/schedstat: the time it
 * ran on a CPU and the time it was ready to run but waited for one (another process had the core).
 * The service's main thread runs every request, so per request these two tell its own cost apart
 * from the wait its neighbours on a shared machine (Redis, the load generator) impose. Null where
 * there is no such file (not Linux, or another machine's process).
 */
import { readFileSync } from 'node:fs';

export interface ThreadSched {
  cpuMs: number;
  waitMs: number;
}

export function threadSched(pid: number, tid = pid): ThreadSched | null {
  try {
    const [ran, waited] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (!Number.isFinite(ran) || !Number.isFinite(waited)) return null;
    return { cpuMs: ran! / 1e6, waitMs: waited! / 1e6 };
  } catch {
    return null;
  }
}

/** The process's name as the kernel knows it (e.g. `redis-server`), or null. */
export function processName(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

/** after − before, or null when either is missing. */
export const schedDelta = (before: ThreadSched | null, after: ThreadSched | null): ThreadSched | null =>
  before && after ? { cpuMs: after.cpuMs - before.cpuMs, waitMs: after.waitMs - before.waitMs } : null;
