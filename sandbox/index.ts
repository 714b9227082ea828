/**
 * Programmatic API of the terminal caller (Node): the core's `runCall` (run-call.ts, which also runs
 * in the browser) and the Node front end's interactive input (readline).
 */
export { runCall, DEFAULT_FROM } from './run-call.js';
export type { RunCallOptions, CallResult } from './run-call.js';
export { VxmlInterpreter } from './vxml-interpreter.js';
export type {
  BrowserGrammars,
  InterpreterMode,
  VxmlInterpreterOptions,
  InterpreterResult,
} from './vxml-interpreter.js';
export { CallScript, parseCallScript } from './call-script.js';
export { InteractiveInput } from './interactive-input.js';
export { AutoCredentials } from './auto-credentials.js';
export { ArrayInputSource, parseCallerInput } from './input-source.js';
export type { CallerInput, InputRequest, InputSource, TransferRequest, CallSummary } from './input-source.js';
export { customerRootDocument, streamIdOf } from './customer-root.js';
export { ScriptFailure } from './control-signal.js';
export type { CallEnd, EventRecord, FetchRecord, SubmitRecord } from './call-outcome.js';
