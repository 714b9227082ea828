/**
 * The call's printable record: what is spoken (🔊 / SAY:), what the caller does (🗣 / YOU:),
 * each fetch with its parameters and timing (→ / ←), transfers, logs and events. Lines are kept and
 * also handed to `onLine` as they happen (the CLI prints them).
 */
import type { EventRecord, FetchRecord } from './call-outcome.js';
import type { CallerInput } from './input-source.js';

export interface TranscriptOptions {
  /** SAY:/YOU: prefixes instead of emoji. */
  plain?: boolean;
  onLine?: (line: string) => void;
}

const FIRST_KEYS = [
  'turn',
  'event',
  'message',
  'utterance',
  'interpretation',
  'confidence',
  'inputmode',
  'transferResult',
];

/** Parameters whose values are credentials: never printed whole. */
const SECRET_PARAMS = /^(token|auth|pin|secret|password|client_?secret)$/i;

/** A credential as printed: stars, after the first characters of a token (a JWT's start is its public header). */
export function maskSecret(name: string, value: string): string {
  if (value === '') return value;
  const start = /^token$|^auth$/i.test(name) && value.length > 16 ? value.slice(0, 6) : '';
  return `${start}***`;
}

function shown(value: string): string {
  return value === '' || /[\s"]/.test(value) ? JSON.stringify(value) : value;
}

/** `k=v` pairs, the turn and ASR values first. */
export function formatParams(params: Record<string, string>): string {
  const keys = Object.keys(params).sort((a, b) => {
    const ia = FIRST_KEYS.indexOf(a);
    const ib = FIRST_KEYS.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
  });
  return keys
    .map((k) => `${k}=${SECRET_PARAMS.test(k) ? maskSecret(k, params[k] ?? '') : shown(params[k] ?? '')}`)
    .join(' ');
}

/** A URL as printed: credential parameters in its query masked. */
export function maskedUrl(url: string): string {
  try {
    const u = new URL(url);
    for (const [k, v] of [...u.searchParams])
      if (SECRET_PARAMS.test(k)) u.searchParams.set(k, maskSecret(k, v));
    return decodeURIComponent(u.toString());
  } catch {
    return url;
  }
}

function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search ? '?…' : ''}`;
  } catch {
    return url;
  }
}

export class Transcript {
  readonly lines: string[] = [];
  readonly spoken: string[] = [];
  private sinceInput: string[] = [];

  constructor(private readonly options: TranscriptOptions = {}) {}

  /** Everything spoken since the caller's last input. */
  get spokenSinceInput(): string {
    return this.sinceInput.join(' ');
  }

  line(text: string, echo = true): void {
    this.lines.push(text);
    if (echo) this.options.onLine?.(text);
  }

  say(text: string, heard: boolean): void {
    if (text === '') return;
    if (!heard) {
      this.line(`${this.options.plain ? 'UNHEARD:' : '🔇'} ${text}  (the line is down)`);
      return;
    }
    this.spoken.push(text);
    this.sinceInput.push(text);
    this.line(`${this.options.plain ? 'SAY:' : '🔊'} ${text}`);
  }

  caller(input: CallerInput, echo: boolean, timeout?: string): void {
    this.sinceInput = [];
    const who = this.options.plain ? 'YOU:' : '🗣';
    const note = input.note ? `  (${input.note})` : '';
    let what: string;
    if (input.kind === 'speech') what = input.text;
    else if (input.kind === 'dtmf') what = `#${input.digits}  (dtmf)`;
    else if (input.kind === 'noinput') what = `(silence${timeout ? `, ${timeout} timeout` : ''})`;
    else what = '(hangs up)';
    this.line(`${who} ${what}${note}`, echo || input.note !== undefined);
  }

  recognized(
    field: string,
    interpretation: unknown,
    inputmode: string,
    confidence: number,
    grammar: string,
  ): void {
    this.line(
      `   ↳ ${field} = ${JSON.stringify(interpretation)}  (${inputmode}, confidence ${confidence}, ${grammar})`,
    );
  }

  fetchStarted(kind: FetchRecord['kind'], method: string, url: string, params: Record<string, string>): void {
    const p = formatParams(params);
    this.line(`→ ${kind} ${method} ${shortUrl(url)}${p ? `  ${p}` : ''}`);
  }

  /** A fetch ended; `_body` is the answer's text (not printed here: a richer front end may show it). */
  fetchDone(record: FetchRecord, _body?: string): void {
    this.line(
      record.error
        ? `← failed after ${record.ms} ms: ${record.error}`
        : `← ${record.status} in ${record.ms} ms`,
    );
  }

  transfer(type: string, dest: string, aai: string | undefined): void {
    this.line(
      `${this.options.plain ? 'TRANSFER:' : '📞'} ${type} transfer to ${dest}${aai ? `  aai=${aai}` : ''}`,
    );
  }

  transferResult(outcome: string): void {
    this.line(`${this.options.plain ? 'TRANSFER:' : '📞'} outcome: ${outcome}`);
  }

  log(text: string): void {
    this.line(`${this.options.plain ? 'LOG:' : '📝'} ${text}`);
  }

  event(record: EventRecord, handling: string): void {
    this.line(
      `${this.options.plain ? 'EVENT:' : '⚡'} ${record.name}${record.message ? ` (${record.message})` : ''} → ${handling}`,
    );
  }

  note(text: string): void {
    this.line(`${this.options.plain ? 'CALL:' : '☎'} ${text}`);
  }
}
