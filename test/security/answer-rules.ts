/**
 * The rules every answer must keep, whatever was sent: never a 5xx; a JSON 4xx carries exactly
 * the contract's error shape; the VoiceXML routes answer VoiceXML (collected, then validated
 * against the XSD in batches); and the prototypes of the process stay as they were.
 */
import type { RawAnswer } from './raw-http.js';
import { POLLUTION_MARK } from './hostile-values.js';

export interface DocSink {
  add(xml: string): string;
}

const ENTRY_KEYS = new Set(['msg', 'code', 'path']);

/** Why a JSON error body breaks `{"errors":[{msg, code, path?}]}` (a requestId member is allowed), or null. */
export function errorShapeProblem(text: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'the body is not an object';
  const extra = Object.keys(body).filter((k) => k !== 'errors' && k !== 'requestId');
  if (extra.length) return `unexpected top-level members ${extra.join(', ')}`;
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors) || errors.length === 0) return 'errors is not a non-empty array';
  for (const e of errors) {
    if (!e || typeof e !== 'object' || Array.isArray(e)) return 'an entry is not an object';
    const entry = e as Record<string, unknown>;
    const bad = Object.keys(entry).filter((k) => !ENTRY_KEYS.has(k));
    if (bad.length) return `an entry has unexpected members ${bad.join(', ')}`;
    if (typeof entry.msg !== 'string' || entry.msg.length === 0) return 'an entry has no msg string';
    if (typeof entry.code !== 'string' && typeof entry.code !== 'number') return 'an entry has no code';
    if (entry.path !== undefined && typeof entry.path !== 'string')
      return 'an entry has a path that is not a string';
  }
  return null;
}

export interface RuleContext {
  /** What was sent, for the failure message. */
  what: string;
  /** The route answers VoiceXML (webhook, sandbox entry). */
  vxml?: boolean;
  docs: DocSink;
}

/** Throws (failing the property) when the answer breaks a rule; collects VoiceXML documents. */
export function checkAnswer(a: RawAnswer, ctx: RuleContext): void {
  const fail = (why: string): never => {
    throw new Error(
      `${why}\n  request: ${ctx.what.slice(0, 600)}\n  answer: ${a.status} ${a.contentType} ${a.text.slice(0, 600)}`,
    );
  };
  if (a.status >= 500) fail(`a ${a.status} answer`);
  // Node's HTTP parser refuses an oversized header block (a huge query) before the app sees it.
  if (a.status === 431 && a.contentType === '') return;
  if (a.status < 200) fail(`no usable status (${a.status})`);
  if (ctx.vxml) {
    if (!a.contentType.startsWith('application/voicexml+xml'))
      fail('the VoiceXML route answered something else than VoiceXML');
    ctx.docs.add(a.text);
    return;
  }
  if (a.status >= 400) {
    if (!a.contentType.startsWith('application/json')) fail('a 4xx answer that is not JSON');
    const problem = errorShapeProblem(a.text);
    if (problem) fail(`the 4xx body breaks the error shape: ${problem}`);
    if (a.status === 429 && !a.headers['retry-after']) fail('a 429 without Retry-After');
    if (a.status === 405 && !a.headers.allow) fail('a 405 without Allow');
  } else if (a.contentType.startsWith('application/json')) {
    try {
      JSON.parse(a.text);
    } catch {
      fail('a 2xx JSON answer that does not parse');
    }
  }
}

const PROTOTYPES: Array<[string, object]> = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
];

/** Own property names of the built-in prototypes, to compare after a run. */
export function prototypeSnapshot(): Record<string, string[]> {
  return Object.fromEntries(PROTOTYPES.map(([name, p]) => [name, Reflect.ownKeys(p).map(String).sort()]));
}

/** Why the prototypes differ from the snapshot (or carry the pollution mark), or null. */
export function pollutionProblem(before: Record<string, string[]>): string | null {
  const after = prototypeSnapshot();
  for (const [name] of PROTOTYPES) {
    const added = after[name]!.filter((k) => !before[name]!.includes(k));
    if (added.length) return `${name} gained ${added.join(', ')}`;
  }
  const probe = {} as Record<string, unknown>;
  if (
    probe[POLLUTION_MARK] !== undefined ||
    ([] as unknown as Record<string, unknown>)[POLLUTION_MARK] !== undefined
  )
    return `the ${POLLUTION_MARK} mark is inherited`;
  if (Object.getPrototypeOf(probe) !== Object.prototype || Object.getPrototypeOf(Object.prototype) !== null)
    return 'a prototype chain changed';
  return null;
}

/** Counts answers by status, so a run can show (and assert) that it reached the deep paths. */
export class StatusTally {
  private readonly counts = new Map<number, number>();
  add(status: number): void {
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
  }
  count(status: number): number {
    return this.counts.get(status) ?? 0;
  }
  toString(): string {
    return [...this.counts.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}x${n}`)
      .join(' ');
  }
}
