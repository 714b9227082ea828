import { z } from 'zod';
import { localizedText, localizedTextSchema } from '../languages.js';
import { defineNode, type CompiledNode, type NodeOutcome, type NodeRuntime } from '../define-node.js';
import { IDENTIFIER, nodeCommonShape } from '../node-schema-parts.js';

export const DEFAULT_LLM_TIMEOUT_MS = 8000;
/** Longest answer kept in the dialog state (it is stored per call). */
export const MAX_ANSWER_CHARS = 2000;

const schema = z.strictObject({
  type: z.literal('llm'),
  connectionId: z.string().min(1),
  prompt: localizedText(z.string().min(1)),
  system: localizedTextSchema.optional(),
  saveAs: z.string().regex(IDENTIFIER, 'saveAs is an identifier').default('answer'),
  timeoutMs: z.number().int().min(100).max(120_000).optional(),
  errorPrompt: localizedTextSchema.optional(),
  ...nodeCommonShape,
});

function failed(node: CompiledNode<z.output<typeof schema>>, rt: NodeRuntime, code: string): NodeOutcome {
  const { saveAs } = node.def;
  delete rt.state.vars[saveAs];
  delete rt.state.vars[`${saveAs}Tokens`];
  rt.state.vars[`${saveAs}Error`] = code;
  const prompt = rt.errorPrompt(node);
  return prompt ? { kind: 'say', prompt } : { kind: 'error', code: `llm_${code}` };
}

/**
 * Sends the filled prompt to a model connection through the LLM port and stores the answer in
 * `vars[saveAs]` (read back as `{{context.answer}}`), token counts in `vars[saveAs + "Tokens"]`.
 * On failure, timeout or a missing port: `vars[saveAs + "Error"]` is set, the error prompt is said
 * and `next` runs; without any error prompt the turn ends with an error result.
 */
export const llmNode = defineNode({
  type: 'llm',
  schema,
  templates: { prompt: 'text', system: 'text', errorPrompt: 'prompt' },
  slow: true,
  writes: (def) => {
    const saveAs = typeof def.saveAs === 'string' ? def.saveAs : 'answer';
    return { vars: [saveAs, `${saveAs}Error`, `${saveAs}Tokens`] };
  },
  run: async (node, rt): Promise<NodeOutcome> => {
    const port = rt.ports.llm;
    if (!port) return failed(node, rt, 'unavailable');
    const { saveAs, connectionId } = node.def;
    const timeoutMs = node.def.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error('timeout'));
      }, timeoutMs);
    });
    try {
      const call = port.complete({
        streamId: rt.call.streamId,
        connectionId,
        prompt: rt.text(node, 'prompt'),
        ...(node.def.system !== undefined ? { system: rt.text(node, 'system') } : {}),
        timeoutMs,
        signal: controller.signal,
        step: rt.step(node),
      });
      call.catch(() => undefined);
      const res = await Promise.race([call, timeout]);
      const text = typeof res?.text === 'string' ? res.text.trim() : '';
      if (text === '') return failed(node, rt, 'empty');
      rt.state.vars[saveAs] = text.slice(0, MAX_ANSWER_CHARS);
      delete rt.state.vars[`${saveAs}Error`];
      if (res.inputTokens !== undefined || res.outputTokens !== undefined) {
        rt.state.vars[`${saveAs}Tokens`] = { input: res.inputTokens ?? 0, output: res.outputTokens ?? 0 };
      } else delete rt.state.vars[`${saveAs}Tokens`];
      return { kind: 'say', prompt: [] };
    } catch {
      return failed(node, rt, controller.signal.aborted ? 'timeout' : 'failed');
    } finally {
      clearTimeout(timer);
    }
  },
});
