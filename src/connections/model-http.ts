/** Sends one model request as JSON and returns the parsed JSON answer, or a typed LlmError. */
import { LlmError } from './llm-error.js';
import { AnswerTooLargeError, type ModelTransport } from './model-transport.js';
import type { ResolvedAddress } from './endpoint-guard.js';
import type { ModelHttpRequest } from './providers/provider-adapter.js';

export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export async function postModelJson(
  req: ModelHttpRequest,
  opts: { transport: ModelTransport; signal: AbortSignal; pin?: ResolvedAddress | null },
): Promise<unknown> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = v;
  let answer;
  try {
    answer = await opts.transport({
      url: req.url,
      headers,
      body: JSON.stringify(req.body),
      signal: opts.signal,
      pin: opts.pin ?? null,
      maxBytes: MAX_ANSWER_BYTES,
    });
  } catch (err) {
    if (err instanceof LlmError) throw err;
    if (err instanceof AnswerTooLargeError) throw new LlmError('bad_answer', 'The model answer is too large');
    if (opts.signal.aborted) throw new LlmError('timeout', 'The model call was aborted at its deadline');
    throw new LlmError('network', 'The model endpoint could not be reached');
  }
  if (answer.status < 200 || answer.status > 299)
    throw new LlmError('http_status', `The model answered HTTP ${answer.status}`, answer.status);
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    throw new LlmError('bad_answer', 'The model answer is not JSON');
  }
}
