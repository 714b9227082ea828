/** The chat-completions wire format (`messages` in, `choices[0].message.content` out). */
import { readModelAnswer } from '../model-answer.js';
import type { ModelCall, WireShape } from './provider-adapter.js';

export const chatCompletionsShape: WireShape = {
  body(model: string, call: ModelCall) {
    return {
      model,
      messages: [
        ...(call.system ? [{ role: 'system', content: call.system }] : []),
        { role: 'user', content: call.prompt },
      ],
    };
  },
  read(json: unknown) {
    return readModelAnswer(json, {
      text: 'choices[0].message.content',
      inputTokens: 'usage.prompt_tokens',
      outputTokens: 'usage.completion_tokens',
    });
  },
};
