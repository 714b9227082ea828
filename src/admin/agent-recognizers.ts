/**
 * The apps' intent recognizers, as batch tests reach them (the testruns RecognizerPort): each app's
 * compiled agent from the registry, its language and threshold, and its recognition result without
 * the agent-internal `source`. null when the app has no agent.
 */
import type { CompiledAgent } from '../agent/index.js';

export interface AgentRecognizer {
  language: string;
  threshold: number;
  recognize(text: string): Promise<{ intent: string; score: number; scores: Array<{ intent: string; score: number }> }>;
}

export function agentRecognizers(agents: { get(streamId: string): Promise<CompiledAgent | null> }): { forApp(streamId: string): Promise<AgentRecognizer | null> } {
  return {
    async forApp(streamId) {
      const agent = await agents.get(streamId);
      if (!agent) return null;
      return {
        language: agent.definition.language,
        threshold: agent.recognizer.threshold,
        recognize: async (text) => {
          const r = await agent.recognizer.recognize(text);
          return { intent: r.intent, score: r.score, scores: r.scores };
        },
      };
    },
  };
}
