import type { AgentDefinition } from './agent-definition.js';
import type { CompiledAgent } from './compile-agent.js';

export interface IntentPhrases {
  /** the intent's name (what an SRGS item's tag carries) */
  name: string;
  /** same as `name` */
  intent: string;
  dialog: string;
  /** the training utterances, as authored (the VXML side lower-cases and strips punctuation) */
  utterances: string[];
}

/**
 * Intents with their training utterances, for building the SRGS grammar of an intent question; in
 * `language`, the phrases of that language (an intent without them keeps the default's).
 */
export function listIntentPhrases(
  agent: CompiledAgent | AgentDefinition,
  language?: string,
): IntentPhrases[] {
  const definition = 'definition' in agent ? agent.definition : agent;
  return definition.intents.map((i) => ({
    name: i.name,
    intent: i.name,
    dialog: i.dialog,
    utterances: [
      ...((language !== undefined ? i.translations?.[language]?.utterances : undefined) ?? i.utterances),
    ],
  }));
}
