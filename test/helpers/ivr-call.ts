/**
 * A scripted caller that speaks to the webhook directly, the way a VXML browser submits: urlencoded
 * POSTs to the URL in the document's <submit>, with the turn the document declared.
 */
import { randomUUID } from 'node:crypto';
import type { RunningGateway } from './test-gateway.js';

export const turnOf = (xml: string): string | undefined =>
  /<var name="turn" expr="'(\d+)'"\s*\/>/.exec(xml)?.[1];
export const submitUrlOf = (xml: string): string | undefined => {
  const m = /<submit[^>]*next="([^"]+)"/.exec(xml);
  return m?.[1]?.replace(/&amp;/g, '&');
};
/** The text of every <prompt> in a document, tags removed. */
export const spokenOf = (xml: string): string =>
  // the failed-fetch handler's apology is not part of what the document says
  [
    ...xml
      .replace(/<catch event="error\.badfetch"[\s\S]*?<\/catch>/g, '')
      .matchAll(/<prompt[^>]*>([\s\S]*?)<\/prompt>/g),
  ]
    .map((m) =>
      m[1]!
        .replace(/<[^>]+>/g, ' ')
        .replace(/&apos;/g, "'")
        .replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>'),
    )
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
/** The kind of a gateway document, from its form's id (a wait without event=poll is the store-retry document). */
export const kindOf = (xml: string): string => {
  const form = /<form id="([\w-]+)"/.exec(xml)?.[1];
  if (form === 'wait') return xml.includes('expr="\'poll\'"') ? 'wait' : 'retry';
  if (form && ['ask', 'say', 'end', 'transfer', 'error', 'bootstrap'].includes(form)) return form;
  return 'other';
};

export class IvrCall {
  readonly callId: string;
  last = '';
  lastStatus = 0;
  private url: string;

  constructor(
    private readonly gw: RunningGateway,
    webhookUrl: string,
    readonly from = '+15550001111',
    callId?: string,
  ) {
    this.callId = callId ?? `call-${randomUUID()}`;
    this.url = webhookUrl;
  }

  private async post(params: Record<string, string>, url = this.url): Promise<string> {
    const r = await this.gw.submit(url, params);
    this.last = r.xml;
    this.lastStatus = r.status;
    const next = submitUrlOf(r.xml);
    if (next) this.url = next;
    return r.xml;
  }

  start(extra: Record<string, string> = {}): Promise<string> {
    return this.post({ callId: this.callId, message: '', from: this.from, to: 'agent', ...extra });
  }

  get turn(): string {
    return turnOf(this.last) ?? '0';
  }

  /** What the caller says (voice) or keys (dtmf), with the ASR values a browser would submit. */
  say(
    text: string,
    opts: { confidence?: string; inputmode?: 'voice' | 'dtmf'; interpretation?: string; turn?: string } = {},
  ): Promise<string> {
    return this.post({
      callId: this.callId,
      from: this.from,
      turn: opts.turn ?? `${this.turn}.0`,
      message: text,
      interpretation: opts.interpretation ?? text,
      confidence: opts.confidence ?? '0.900000',
      inputmode: opts.inputmode ?? 'voice',
    });
  }

  event(event: string, extra: Record<string, string> = {}): Promise<string> {
    return this.post({ callId: this.callId, turn: this.turn, event, ...extra });
  }

  /** Resubmits exactly the params of a given turn (a browser's duplicate). */
  raw(params: Record<string, string>): Promise<string> {
    return this.post({ callId: this.callId, ...params });
  }
}

/**
 * Polls through the wait documents of a turn that outlasted the turn deadline (the contract's
 * answer to a slow turn: a fresh instance training its model, a loaded machine), up to a bound, and
 * answers the first document after them.
 */
export async function settled(call: IvrCall, doc: string, maxPolls = 40): Promise<string> {
  for (let i = 0; i < maxPolls && kindOf(doc) === 'wait'; i++) doc = await call.event('poll');
  return doc;
}
