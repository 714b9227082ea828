/**
 * The one error of the LLM port. The agent's llm node plays its error prompt on any of them; the
 * code says why (for logs and `vars[saveAs + "Error"]`-style diagnostics). Messages carry no secret,
 * no endpoint URL and no model answer text.
 */
export type LlmErrorCode =
  | 'timeout' // no answer within timeoutMs (or the caller aborted)
  | 'http_status' // the model answered with a non-2xx status (see `status`)
  | 'bad_answer' // the answer is not JSON, too large, or lacks the output path
  | 'inactive' // the connection is INACTIVE (isEnable false)
  | 'not_found' // no connection with that id
  | 'private_endpoint' // the endpoint is (or resolves to) a private address and that is not allowed
  | 'network' // the endpoint could not be reached (DNS failure, connection refused or reset)
  | 'unsupported'; // the connection cannot answer text prompts (e.g. no textToText mapping)

export class LlmError extends Error {
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}
