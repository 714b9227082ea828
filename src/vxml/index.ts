/**
 * The VoiceXML renderer's public face. Everything else in src/vxml is internal.
 */
export { renderDocument, type RenderOptions } from './render-document.js';
export {
  buildIntentGrammar,
  prepareSrgsGrammar,
  renderSrgsDocument,
  normalisePhrase,
  INTENT_GRAMMAR_LIMITS,
  type IntentPhrases,
  type IntentGrammarOptions,
  type SrgsFieldGrammar,
} from './srgs-grammar.js';
export { entityGrammars, transcriptionGrammar, withTranscription } from './builtin-grammars.js';
export {
  renderEntityGrammarDocument,
  entityGrammarUrl,
  type EntityGrammarRef,
} from './entity-grammar-document.js';
export {
  dialectProfiles,
  dialectProfile,
  dialectNames,
  type DialectName,
  type DialectProfile,
  type DialectFact,
  type DialectVoice,
  type BuiltinType,
} from './dialects.js';
export { ecmaString, type EcmaExpr } from './ecma-string.js';
export { fieldNameFromKey, shadowConfidenceExpr } from './field-name.js';
export type * from './document-spec.js';
