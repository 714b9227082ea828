/** The messages wire format (top-level `system`, `max_tokens`; text parts in `content[]`). */
import { readModelAnswer } from '../model-answer.js';
import type { ModelCall, WireShape } from './provider-adapter.js';

export const MESSAGES_MAX_TOKENS = 1024;

export const messagesShape: WireShape = {
  body(model: string, call: ModelCall) {
    return {
      model,
      max_tokens: MESSAGES_MAX_TOKENS,
      ...(call.system ? { system: call.system } : {}),
      messages: [{ role: 'user', content: call.prompt }],
    };
  },
  read(json: unknown) {
    return readModelAnswer(json, {
      text: 'content',
      inputTokens: 'usage.input_tokens',
      outputTokens: 'usage.output_tokens',
    });
  },
};
