/**
 * The agent runtime's public face: definition validation, compilation (intent training / model
 * import), the turn runner and the demo agent. Nothing else under src/agent/ is public.
 */
export {
  agentDefinitionSchema,
  validateAgentDefinition,
  AgentDefinitionError,
  type AgentDefinition,
  type AgentDefinitionInput,
  type AgentNode,
  type DefinitionProblem,
  type ValidationResult,
} from './agent-definition.js';
export {
  compileAgent,
  loadCompiledAgent,
  loadValidatedAgent,
  trainAgentModel,
  type CompiledAgent,
  type CompiledDialog,
} from './compile-agent.js';
export { IntentModelError, type IntentRecognizer } from './intent-recognizer.js';
export { runTurn, initialDialogState } from './run-turn.js';
export { decideIntent, describeDecision } from './intent-decision.js';
export { NLU_DEFAULTS, labelFromName, resolveNluSettings, type NluSettings } from './nlu-settings.js';
export { demoAgentDefinition, demoAgentWith } from './demo-agent.js';
export { bilingualDemoAgentDefinition } from './bilingual-demo-agent.js';
export { declaredLanguages, matchLanguage, sameLanguage } from './languages.js';
export { prepareLanguagePacks } from './nlu/language-pack.js';
export { translationGaps } from './translation-gaps.js';
export { promptToText } from './prompt-template.js';
export { listIntentPhrases, type IntentPhrases } from './list-intent-phrases.js';
export { grammarSourceSchema, isGrammarSource } from './node-schema-parts.js';
export type * from './turn-types.js';
