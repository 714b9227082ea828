/**
 * The apps' intent recognizers, as batch tests reach them (the testruns RecognizerPort): each app's
 * compiled agent from the registry, its language and threshold, and its recognition result without
 * the agent-internal `source`. null when the app has no agent.
 */
import { matchLanguage, type CompiledAgent } from '../agent/index.js';

export interface AgentRecognizer {
  language: string;
  /** Every language of the agent (issue 43: one recognizer per language). */
  languages: readonly string[];
  threshold: number;
  recognize(text: string): Promise<{ intent: string; score: number; scores: Array<{ intent: string; score: number }> }>;
}

export function agentRecognizers(agents: { get(streamId: string): Promise<CompiledAgent | null> }): { forApp(streamId: string, language?: string): Promise<AgentRecognizer | null> } {
  return {
    async forApp(streamId, language) {
      const agent = await agents.get(streamId);
      if (!agent) return null;
      // the recognizer of the asked language when the agent speaks it, else the default one's
      const lang = matchLanguage(agent.languages, language);
      const recognizer = (lang !== undefined && lang !== agent.languages[0] ? agent.recognizers.get(lang) : undefined) ?? agent.recognizer;
      return {
        language: lang !== undefined && lang !== agent.languages[0] ? lang : agent.definition.language,
        languages: agent.languages,
        threshold: recognizer.threshold,
        recognize: async (text) => {
          const r = await recognizer.recognize(text);
          return { intent: r.intent, score: r.score, scores: r.scores };
        },
      };
    },
  };
}
