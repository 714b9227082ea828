/**
 * What the VoiceXML renderer needs from an agent version that no turn changes: the intents' inline
 * SRGS grammar in each of the agent's languages (the phrases of that language, normalised, shared
 * out and capped by buildIntentGrammar) with its items' markup written once (prepareSrgsGrammar).
 * Made when the agent is compiled and kept with it, so an intent question's document only names it.
 * Entity grammars are not here: they depend on the dialect and are a handful of fixed elements.
 */
import { buildIntentGrammar, prepareSrgsGrammar, type SrgsFieldGrammar } from '../vxml/index.js';
import type { AgentDefinition } from './agent-definition.js';
import { listIntentPhrases } from './list-intent-phrases.js';

/**
 * The intent grammar of each language (the default first), `xml:lang` that language. The default
 * language's phrases are the intents' own utterances; another's, their translations (an intent
 * without one keeps the default's).
 */
export function prepareIntentGrammars(
  definition: AgentDefinition,
  languages: readonly string[],
): ReadonlyMap<string, SrgsFieldGrammar> {
  return new Map(
    languages.map((lang, i) => {
      const phrases = listIntentPhrases(definition, i === 0 ? undefined : lang).map((p) => ({
        name: p.intent,
        utterances: p.utterances,
      }));
      return [lang, prepareSrgsGrammar(buildIntentGrammar(phrases, { lang }))];
    }),
  );
}
