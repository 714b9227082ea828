/**
 * The web caller's output port: the interpreter's transcript, kept as structured entries (with the
 * time since the call started, each fetch with its answer's body) for the panel to show, and each
 * prompt handed to the speaker as it is spoken.
 */
import {
  Transcript,
  type EventRecord,
  type FetchRecord,
  type CallerInput,
} from '../../../../sandbox/browser.js';

export type EntryKind =
  | 'say'
  | 'unheard'
  | 'caller'
  | 'recognized'
  | 'fetch'
  | 'fetched'
  | 'event'
  | 'note'
  | 'log'
  | 'transfer'
  | 'line';

export interface TranscriptEntry {
  id: number;
  /** Milliseconds since the call started. */
  at: number;
  kind: EntryKind;
  text: string;
  /** For a fetch that ended: its record and the body that came back. */
  fetch?: FetchRecord;
  body?: string;
  event?: EventRecord;
}

/** The terminal transcript's leading marker of a line (🔊 prompt, 🗣 caller, ⚡ event…). */
const MARKER = /^(?:🔊|🗣|🔇|📞|📝|⚡|☎)\uFE0F?\s*/u;

export interface WebTranscriptHooks {
  onEntry: (entry: TranscriptEntry) => void;
  onPrompt: (text: string) => void;
}

export class WebTranscript extends Transcript {
  private readonly started = performance.now();
  private kind: EntryKind | undefined;
  private extra: Partial<TranscriptEntry> = {};
  private count = 0;

  constructor(private readonly hooks: WebTranscriptHooks) {
    super({ plain: false });
  }

  override line(text: string, echo = true): void {
    super.line(text, echo);
    // the panel names each entry's kind itself: the terminal's emoji marker is dropped
    const shown = text.replace(MARKER, '');
    this.hooks.onEntry({
      id: ++this.count,
      at: Math.round(performance.now() - this.started),
      kind: this.kind ?? 'line',
      text: shown,
      ...this.extra,
    });
  }

  private as(kind: EntryKind, extra: Partial<TranscriptEntry>, write: () => void): void {
    this.kind = kind;
    this.extra = extra;
    try {
      write();
    } finally {
      this.kind = undefined;
      this.extra = {};
    }
  }

  override say(text: string, heard: boolean): void {
    this.as(heard ? 'say' : 'unheard', {}, () => super.say(text, heard));
    if (heard && text !== '') this.hooks.onPrompt(text);
  }

  override caller(input: CallerInput, echo: boolean, timeout?: string): void {
    this.as('caller', {}, () => super.caller(input, echo, timeout));
  }

  override recognized(
    field: string,
    interpretation: unknown,
    inputmode: string,
    confidence: number,
    grammar: string,
  ): void {
    this.as('recognized', {}, () => super.recognized(field, interpretation, inputmode, confidence, grammar));
  }

  override fetchStarted(
    kind: FetchRecord['kind'],
    method: string,
    url: string,
    params: Record<string, string>,
  ): void {
    this.as('fetch', {}, () => super.fetchStarted(kind, method, url, params));
  }

  override fetchDone(record: FetchRecord, body?: string): void {
    this.as('fetched', { fetch: record, ...(body !== undefined ? { body } : {}) }, () =>
      super.fetchDone(record, body),
    );
  }

  override event(record: EventRecord, handling: string): void {
    this.as('event', { event: record }, () => super.event(record, handling));
  }

  override transfer(type: string, dest: string, aai: string | undefined): void {
    this.as('transfer', {}, () => super.transfer(type, dest, aai));
  }

  override transferResult(outcome: string): void {
    this.as('transfer', {}, () => super.transferResult(outcome));
  }

  override log(text: string): void {
    this.as('log', {}, () => super.log(text));
  }

  override note(text: string): void {
    this.as('note', {}, () => super.note(text));
  }
}
