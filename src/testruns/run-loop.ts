/**
 * Executes one run in the background: utterance by utterance through the recognizer, yielding to
 * the event loop (setImmediate) at least every `sliceMs` of work and after every checkpoint, and
 * persisting progress plus the batch's CSV rows every `chunkSize` utterances (or `persistEveryMs`).
 * Every write is guarded on "still running and still mine": when another instance has failed the
 * run (its owner looked dead), the loop stops without writing.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import type { TestRecognizer } from './recognizer-port.js';
import { resultCsv } from './result-csv.js';
import { addToAnalysis, emptyAnalysis } from './run-analysis.js';
import { addOutcome, emptyCounters } from './run-counters.js';
import type { FinishRun } from './run-finisher.js';
import { scoreUtterance } from './score-utterance.js';
import type { RunState, TestrunsRepository } from './testruns-repository.js';
import type { SuiteUtterance } from './testruns-schemas.js';

/** Set by the supervisor: `stopping` ends the run as failed (partial); `halted` abandons it without a write. */
export interface RunControl {
  stopping: boolean;
  halted: boolean;
}

export interface LoopOptions {
  chunkSize: number;
  persistEveryMs: number;
  sliceMs: number;
  utteranceTimeoutMs: number;
}

export interface RunJob {
  run: RunState;
  utterances: SuiteUtterance[];
  recognizer: TestRecognizer;
  owner: string;
  control: RunControl;
}

export type LoopEnd = 'completed' | 'stopped' | 'lost' | 'halted';

export async function runLoop(
  job: RunJob,
  deps: { repo: TestrunsRepository; finish: FinishRun; options: LoopOptions; onUtterance?: () => void },
): Promise<LoopEnd> {
  const { run, utterances, recognizer, owner, control } = job;
  const { repo, finish, options } = deps;
  const ref = { streamId: run.meta.streamId, runId: run.meta._id };
  const counters = emptyCounters();
  const analysis = emptyAnalysis();
  let ran = 0;
  let batch = 0;
  let pending: string[][] = [];
  let pendingCount = 0;
  let lastPersist = Date.now();
  let sliceStart = performance.now();

  const end = async (status: 'completed' | 'failed', reason?: string): Promise<boolean> =>
    finish(run, owner, {
      status,
      ran,
      results: counters,
      analysis,
      pendingCsv: resultCsv.body(pending),
      ...(reason ? { reason } : {}),
    });

  for (const u of utterances) {
    if (control.halted) return 'halted';
    if (control.stopping)
      return (await end('failed', 'stopped: the instance running it shut down')) ? 'stopped' : 'lost';
    const outcome = await scoreUtterance(recognizer, u, options.utteranceTimeoutMs);
    if (control.halted) return 'halted';
    addOutcome(counters, outcome);
    addToAnalysis(analysis, u.intent, outcome);
    pending.push(...resultCsv.rowsFor(u, outcome, run.meta.runType));
    pendingCount++;
    ran++;
    deps.onUtterance?.();
    if (pendingCount >= options.chunkSize || Date.now() - lastPersist >= options.persistEveryMs) {
      const ok = await repo.checkpoint(ref, owner, {
        ran,
        results: counters,
        analysis,
        batchIndex: batch,
        csv: resultCsv.body(pending),
      });
      if (!ok) return 'lost';
      batch++;
      pending = [];
      pendingCount = 0;
      lastPersist = Date.now();
      await yieldToLoop();
      sliceStart = performance.now();
    } else if (performance.now() - sliceStart >= options.sliceMs) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
  }
  if (control.halted) return 'halted';
  return (await end('completed')) ? 'completed' : 'lost';
}
