/**
 * Tracing component: what the turn loop records of each webhook request for the call inspector (a
 * `TurnTrace` and its call-summary update, collected step by step and handed to the `TurnTracePort`)
 * and the turn loop's OpenTelemetry spans.
 */
export type {
  TurnTrace,
  CallSummaryUpdate,
  TraceMark,
  ModelCallTrace,
  TableWriteTrace,
  TurnTracePort,
} from './turn-trace.js';
export { TraceDraft, turnTraceSchema, callSummaryUpdateSchema, TRACE_MARKS } from './turn-trace.js';
export { TurnTraceCollector } from './turn-trace-collector.js';
export { agentStepSpan, historyWriteSpan, turnSpan } from './turn-spans.js';
