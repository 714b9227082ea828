/**
 * The apps' intent recognizers, as batch tests reach them (the testruns RecognizerPort): each app's
 * compiled agent from the registry (the published version, or the latest trained draft when the run
 * asks for it; when it asks for neither, the one the app's sandbox answers from), its language and
 * threshold, the version tested, and its recognition result without the agent-internal `source`.
 * null when the app has no agent.
 */
import { matchLanguage, type CompiledAgent } from '../agent/index.js';
import type { AgentAudience } from './agent-registry.js';

export interface AgentRecognizer {
  language: string;
  /** Every language of the agent (issue 43: one recognizer per language). */
  languages: readonly string[];
  threshold: number;
  /** The agent version the recognizer belongs to. */
  version: string;
  /** Which the run tests: the draft (the published version while there is none) or the published one. */
  from: AgentAudience;
  recognize(
    text: string,
  ): Promise<{ intent: string; score: number; scores: Array<{ intent: string; score: number }> }>;
}

interface AgentLookup {
  resolve(
    streamId: string,
    from?: AgentAudience,
  ): Promise<{ agent: CompiledAgent; version: string; from: AgentAudience } | null>;
}

/** `sandboxUses`: which version the app's sandbox answers from (a run that names none tests that one). */
export function agentRecognizers(
  agents: AgentLookup,
  sandboxUses: (streamId: string) => Promise<AgentAudience> = () =>
    Promise.resolve<AgentAudience>('published'),
): { forApp(streamId: string, language?: string, from?: AgentAudience): Promise<AgentRecognizer | null> } {
  return {
    async forApp(streamId, language, from) {
      const asked = from ?? (await sandboxUses(streamId));
      const found = await agents.resolve(streamId, asked);
      if (!found) return null;
      const { agent } = found;
      // the recognizer of the asked language when the agent speaks it, else the default one's
      const lang = matchLanguage(agent.languages, language);
      const recognizer =
        (lang !== undefined && lang !== agent.languages[0] ? agent.recognizers.get(lang) : undefined) ??
        agent.recognizer;
      return {
        language: lang !== undefined && lang !== agent.languages[0] ? lang : agent.definition.language,
        languages: agent.languages,
        threshold: recognizer.threshold,
        version: found.version,
        from: asked,
        recognize: async (text) => {
          const r = await recognizer.recognize(text);
          return { intent: r.intent, score: r.score, scores: r.scores };
        },
      };
    },
  };
}
