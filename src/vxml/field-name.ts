/**
 * Field names from the IVR settings' keys as operators type them: the data extraction key with spaces
 * removed names the `<field>` ("user input" → "userinput"), and "<key> confidence" means that field's
 * shadow variable (`userinput$.confidence`). The result is always a valid VoiceXML
 * RestrictedVariableName and ECMAScript identifier, and never one of the names our documents use.
 */
import { ecmaRef, type EcmaExpr } from './ecma-string.js';

const FALLBACK = 'userinput';
const MAX_LENGTH = 64;

/** ECMAScript reserved words and literals that cannot name a variable. */
const ECMA_RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'yield let static implements interface package private protected public await undefined NaN Infinity eval arguments'
  ).split(' '),
);

/** Names the rendered documents declare or read themselves, and VoiceXML's scope names. */
const TAKEN = new Set(
  (
    'callId from to turn event message interpretation confidence inputmode failures endOfConversation error ' +
    'transferResult attempt pin secret bot xfer session application document dialog lastresult recording sent badfetches'
  ).split(' '),
);

const START = /[\p{L}\p{Nl}]/u;
const ID_START = /\p{ID_Start}/u;
const PART = /[\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}]/u;
const ID_PART = /\p{ID_Continue}/u;

/** "user input" → "userinput"; anything unusable → "userinput"; a clash with a reserved name gets "_". */
export function fieldNameFromKey(key: string): string {
  let name = '';
  for (const ch of String(key ?? '').normalize('NFKC')) {
    if (name === '' ? START.test(ch) && ID_START.test(ch) : PART.test(ch) && ID_PART.test(ch)) name += ch;
    if (name.length >= MAX_LENGTH) break;
  }
  if (name === '') return FALLBACK;
  return ECMA_RESERVED.has(name) || TAKEN.has(name) ? `${name}_` : name;
}

/**
 * The shadow-variable expression for a confidence key: "userinput confidence" → `userinput$.confidence`.
 * A key without the word "confidence" is taken as the data extraction key itself.
 */
export function shadowConfidenceExpr(confidenceKey: string): EcmaExpr {
  const m = /^(.*?)[\s_$.]*confidence\s*$/iu.exec(String(confidenceKey ?? '').trim());
  const base = m && m[1] ? m[1] : confidenceKey;
  return ecmaRef(`${fieldNameFromKey(base)}$`, 'confidence');
}
