/**
 * The interpreter core as a browser uses it (the console's web caller): the same `runCall` as the
 * terminal caller, its input and outcome types, the transcript, and the dialect modes. Nothing here
 * reaches a Node builtin; the Node front end is index.ts.
 */
export { runCall } from './run-call.js';
export type { RunCallOptions, CallResult } from './run-call.js';
export type { CallerInput, InputRequest, InputSource } from './input-source.js';
export type { EventRecord, FetchRecord } from './call-outcome.js';
export { Transcript } from './transcript.js';
export { PAUSE } from './ssml-text.js';
export { dialectMode, type EmulatedDialect } from './dialect-mode.js';
