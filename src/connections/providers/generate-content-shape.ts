/** The generate-content wire format (`contents[].parts[]` in, `candidates[0].content.parts` out). */
import { readModelAnswer } from '../model-answer.js';
import type { ModelCall, WireShape } from './provider-adapter.js';

export const generateContentShape: WireShape = {
  body(model: string, call: ModelCall) {
    return {
      model,
      contents: [{ role: 'user', parts: [{ text: call.prompt }] }],
      ...(call.system ? { systemInstruction: { parts: [{ text: call.system }] } } : {}),
    };
  },
  read(json: unknown) {
    return readModelAnswer(json, {
      text: 'candidates[0].content.parts',
      inputTokens: 'usageMetadata.promptTokenCount',
      outputTokens: 'usageMetadata.candidatesTokenCount',
    });
  },
};
