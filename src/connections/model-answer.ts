/** Turns a model's JSON answer into `{text, inputTokens?, outputTokens?}` through three paths. */
import { readJsonPath } from './json-path-reader.js';
import { LlmError } from './llm-error.js';

export interface ModelAnswer {
  text: string;
  inputTokens?: number;
  outputTokens?: number;
}

const toCount = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
};

/** Text found at the path: a string, or the joined `text` members of an array of content parts. */
const toText = (v: unknown): string | undefined => {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) {
    const parts = v
      .map((p) => (typeof p === 'string' ? p : (p as { text?: unknown } | null)?.text))
      .filter((t): t is string => typeof t === 'string');
    return parts.length > 0 ? parts.join('') : undefined;
  }
  return undefined;
};

export function readModelAnswer(
  json: unknown,
  paths: { text: string; inputTokens?: string; outputTokens?: string },
): ModelAnswer {
  const text = toText(readJsonPath(json, paths.text));
  if (text === undefined) throw new LlmError('bad_answer', 'The model answer has no text at the output path');
  const answer: ModelAnswer = { text };
  const input = paths.inputTokens ? toCount(readJsonPath(json, paths.inputTokens)) : undefined;
  const output = paths.outputTokens ? toCount(readJsonPath(json, paths.outputTokens)) : undefined;
  if (input !== undefined) answer.inputTokens = input;
  if (output !== undefined) answer.outputTokens = output;
  return answer;
}
