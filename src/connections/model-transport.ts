/** The HTTP round trip of a model call, as a replaceable function. */
import type { ResolvedAddress } from './endpoint-guard.js';

export interface TransportRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  /** Connect to this (already checked) address instead of resolving the host again. */
  pin?: ResolvedAddress | null;
  /** Answers larger than this are refused. */
  maxBytes: number;
}

export interface TransportAnswer {
  status: number;
  text: string;
}

export type ModelTransport = (req: TransportRequest) => Promise<TransportAnswer>;

/** Thrown by a transport whose answer exceeds `maxBytes`. */
export class AnswerTooLargeError extends Error {
  constructor() {
    super('model answer too large');
    this.name = 'AnswerTooLargeError';
  }
}
