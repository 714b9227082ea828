/**
 * The status answer of a run (GET …/testsuite/:name/:runId/status). Running form: progress members
 * at the top and `result` with the always-present members. Completed (and failed) form: no progress
 * members, `result` with every member, ratios as two-decimal strings and a fresh signed fileUrl. A
 * failed run also reports how far it got (`utterance_ran`) and why (`result.reason`). Both also
 * carry the rejection figures, the confusion matrix with None and the calibration (run-analysis.ts),
 * and `results` the counters of None as a class; a run stored before these existed has none of them.
 */
import { analysisView } from './run-analysis.js';
import { runRatios } from './run-counters.js';
import type { RunState } from './testruns-repository.js';
import type { StatusAnswer } from './testruns-schemas.js';

export function runView(run: RunState, fileUrl: string | undefined): StatusAnswer {
  const m = run.meta;
  const always = {
    _id: m._id,
    isPartialFailure: run.isPartialFailure,
    status: run.status,
    testSuiteId: m.testSuiteId,
    triggeredBy: m.triggeredBy,
    streamId: m.streamId,
    botLanguage: m.botLanguage,
    runType: m.runType,
    utterance_count: m.utterance_count,
    startTime: m.startTime,
    __v: 0,
    ...(m.agentVersion ? { agentVersion: m.agentVersion } : {}),
  };
  const top = {
    _id: m._id,
    streamId: m.streamId,
    testSuiteId: m.testSuiteId,
    status: run.status,
    utterance_count: m.utterance_count,
  };
  if (run.status === 'running') {
    const total = m.utterance_count;
    return {
      ...top,
      totalUtterances: total,
      utterance_ran: run.ran,
      percentage: total > 0 ? Math.floor((run.ran * 100) / total) : 0,
      result: always,
    };
  }
  const a = run.analysis ? analysisView(run.analysis) : undefined;
  return {
    ...top,
    ...(run.status === 'failed' ? { utterance_ran: run.ran } : {}),
    result: {
      ...always,
      isAvailable: Boolean(run.fileId && fileUrl),
      endTime: run.endTime ?? m.startTime,
      ...runRatios(run.results),
      fileId: run.fileId ?? '',
      fileUrl: fileUrl ?? '',
      results: { ...run.results, ...(a ? a.counters : {}) },
      ...(a
        ? {
            falseAcceptRate: a.falseAcceptRate,
            inScopeAccuracy: a.inScopeAccuracy,
            confusionMatrix: a.confusionMatrix,
            calibration: a.calibration,
          }
        : {}),
      ...(run.reason ? { reason: run.reason } : {}),
    },
  };
}
