/**
 * How a model call is put on the wire. A `WireShape` is a request/answer format (chat completions,
 * messages, generate-content); a `ProviderAdapter` adds the provider's URL and credentials.
 */
import type { OpenedConnection } from '../connection-record.js';
import type { ModelAnswer } from '../model-answer.js';

export interface ModelCall {
  prompt: string;
  system?: string;
}

export interface ModelHttpRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface WireShape {
  body(model: string, call: ModelCall): unknown;
  /** Throws LlmError('bad_answer') when the answer has no text. */
  read(json: unknown): ModelAnswer;
}

export interface ProviderAdapter {
  request(conn: OpenedConnection, call: ModelCall): ModelHttpRequest;
  read(json: unknown): ModelAnswer;
}

/** Base URL without trailing slashes. */
export const trimBase = (url: string): string => url.replace(/\/+$/, '');
