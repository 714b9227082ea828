/**
 * Ends a running run: writes its result file (header block with the final counters, then every row
 * persisted so far plus the rows not yet persisted) and its final state in one guarded step, so only
 * the run's owner (or whoever recovers it from a dead owner) can end it, and only once.
 */
import { isoNow, newId } from '../platform/index.js';
import { resultCsv } from './result-csv.js';
import type { RunAnalysis } from './run-analysis.js';
import type { RunCounters } from './run-counters.js';
import type { RunState, TestrunsRepository } from './testruns-repository.js';

/** What the component needs of the apps service (the app name for the file's header). */
export interface AppsLookup {
  findApp(streamId: string): Promise<{ name: string } | null>;
}

export interface RunEnd {
  status: 'completed' | 'failed';
  ran: number;
  results: RunCounters;
  /** Absent only for a run stored before the analysis existed. */
  analysis?: RunAnalysis;
  /** CSV rows processed but not yet persisted. */
  pendingCsv?: string;
  reason?: string;
}

export type FinishRun = (run: RunState, owner: string, end: RunEnd) => Promise<boolean>;

export function runFinisher(deps: { repo: TestrunsRepository; apps: AppsLookup }): FinishRun {
  return async (run, owner, end) => {
    const ref = { streamId: run.meta.streamId, runId: run.meta._id };
    const endTime = isoNow();
    const [app, rows] = await Promise.all([deps.apps.findApp(ref.streamId), deps.repo.readRows(ref)]);
    const head = resultCsv.head({
      appName: app?.name ?? ref.streamId,
      reportName: run.meta.testSuiteName,
      language: run.meta.botLanguage,
      runType: run.meta.runType,
      threshold: run.meta.threshold,
      lastTested: endTime,
      status: end.status,
      utteranceCount: run.meta.utterance_count,
      tested: end.ran,
      counters: end.results,
      ...(end.analysis ? { analysis: end.analysis } : {}),
    });
    const fileId = newId('fl');
    // the reference first: a crash after it leaves a harmless dangling reference, never a file without one
    await deps.repo.setFileRef(fileId, ref);
    const ok = await deps.repo.finish(run, owner, {
      status: end.status,
      endTime,
      ran: end.ran,
      results: end.results,
      ...(end.analysis ? { analysis: end.analysis } : {}),
      fileId,
      csv: head + rows + (end.pendingCsv ?? ''),
      ...(end.reason ? { reason: end.reason } : {}),
    });
    if (!ok) await deps.repo.dropFileRef(fileId);
    else await deps.repo.removeActive(ref);
    return ok;
  };
}
