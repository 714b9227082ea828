/**
 * A scripted VXML browser for the reliability suites. It follows the documents the gateway answers
 * the way a browser runs them: an ask document's <filled> submits what the caller says, a say
 * document submits event=continue, a wait document (hold or store retry) plays its prompt and then
 * submits exactly the variables its <submit namelist> names, with the values the document declared.
 * Requests go to the instances round-robin; a request that fails on the network (an instance that
 * died) is sent again, unchanged, to the next instance, as a browser's fetch retry would.
 */
import { kindOf, spokenOf } from '../helpers/ivr-call.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const xmlDecode = (s: string): string =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The value of an ECMAScript string literal ('...' or "..."), or undefined for any other expression. */
export function ecmaLiteral(expr: string): string | undefined {
  const m = /^\s*(['"])([\s\S]*)\1\s*$/.exec(expr);
  if (!m) return undefined;
  return m[2]!.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g, (_, e: string) => {
    if (e.startsWith('u{')) return String.fromCodePoint(parseInt(e.slice(2, -1), 16));
    if (e.length > 1 && (e[0] === 'u' || e[0] === 'x')) return String.fromCharCode(parseInt(e.slice(1), 16));
    return (
      ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', '0': '\0' } as Record<string, string>)[e] ?? e
    );
  });
}

export interface ParsedDocument {
  kind: string;
  /** Every <var> declared with a string literal, in document order (later ones win). */
  vars: Record<string, string>;
  /** The submit the browser takes next: path and query of its URL, and its namelist. */
  submit?: { path: string; namelist: string[] };
  spoken: string;
}

export function parseDocument(xml: string): ParsedDocument {
  // a hold (event=poll) or a store retry (the same request again): both are wait forms
  const kind = /<form id="wait"/.test(xml) ? 'wait' : kindOf(xml);
  // what the document runs when all goes well: its event handlers (the fetch-failure resend among
  // them) declare and submit values of their own
  const main = xml.replace(/<catch\b[\s\S]*?<\/catch>/g, '');
  const vars: Record<string, string> = {};
  for (const m of main.matchAll(/<var\s+name="([^"]+)"\s+expr="([^"]*)"\s*\/>/g)) {
    const v = ecmaLiteral(xmlDecode(m[2]!));
    if (v !== undefined) vars[m[1]!] = v;
  }
  const submits = [...main.matchAll(/<submit\s[^>]*>/g)].map((m) => {
    const next = /next="([^"]+)"/.exec(m[0])?.[1];
    const names = /namelist="([^"]*)"/.exec(m[0])?.[1] ?? '';
    return { next: next ? xmlDecode(next) : '', namelist: names.split(/\s+/).filter(Boolean) };
  });
  const chosen = kind === 'ask' ? submits.find((s) => s.namelist.includes('message')) : submits.at(-1);
  const submit = chosen?.next
    ? { path: new URL(chosen.next).pathname + new URL(chosen.next).search, namelist: chosen.namelist }
    : undefined;
  return { kind, vars, ...(submit ? { submit } : {}), spoken: spokenOf(xml) };
}

export interface Answer {
  status: number;
  xml: string;
  base: string;
}

/** Sends requests to the instances in turn; network failures go to the next instance. */
export class RoundRobinClient {
  private next = 0;
  networkRetries = 0;
  /** The most times one request had to be sent again (a document's error.badfetch catch resends at most twice). */
  mostResendsOfOneRequest = 0;
  requests = 0;
  /** Wait and error documents received (the ones faults produce), for schema validation. */
  readonly faultDocuments: string[] = [];

  constructor(
    private readonly bases: string[],
    private readonly timeoutMs = 20_000,
  ) {}

  async post(path: string, params: Record<string, string>, only?: string): Promise<Answer> {
    const body = new URLSearchParams(params).toString();
    let lastErr: unknown;
    for (let attempt = 0; attempt < 12; attempt++) {
      const base = only ?? this.bases[this.next++ % this.bases.length]!;
      try {
        this.requests++;
        const res = await fetch(base + path, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body,
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        const xml = await res.text();
        this.mostResendsOfOneRequest = Math.max(this.mostResendsOfOneRequest, attempt);
        if (/<form id="(wait|error)"/.test(xml) && this.faultDocuments.length < 200)
          this.faultDocuments.push(xml);
        return { status: res.status, xml, base };
      } catch (err) {
        lastErr = err;
        this.networkRetries++;
        if (attempt % this.bases.length === this.bases.length - 1) await sleep(100);
      }
    }
    throw new Error(`every instance failed for ${path}: ${String((lastErr as Error)?.cause ?? lastErr)}`);
  }
}

export interface TurnRecord {
  kind: string;
  turn?: string;
  /** A retry document's count (the `retry` it resubmits). */
  retry?: string;
  /** An error document's error name. */
  error?: string;
  status: number;
  spoken: string;
  base: string;
}

export interface CallTrace {
  callId: string;
  docs: TurnRecord[];
  /** How the call ended: end, error, badfetch (non-2xx), or stuck (step budget spent). */
  outcome: string;
  waits: number;
}

export interface ScriptOptions {
  client: RoundRobinClient;
  /** Path and query (with the token) of the webhook. */
  startPath: string;
  callId: string;
  from?: string;
  /** What the caller says at each ask document, in order. */
  say: string[];
  /** How long a wait document's hold prompt "plays" before its submit. */
  holdMs?: number;
  maxSteps?: number;
  /** Called after every document (tests use it to inject faults at a given point). */
  onDocument?: (trace: CallTrace, doc: ParsedDocument) => Promise<void> | void;
}

export async function runScriptedCall(opts: ScriptOptions): Promise<CallTrace> {
  const from = opts.from ?? '+15550001111';
  const trace: CallTrace = { callId: opts.callId, docs: [], outcome: 'stuck', waits: 0 };
  const said = [...opts.say];
  let path = opts.startPath;
  let params: Record<string, string> = { callId: opts.callId, message: '', from, to: 'agent' };
  for (let step = 0; step < (opts.maxSteps ?? 60); step++) {
    const answer = await opts.client.post(path, params);
    const doc = parseDocument(answer.xml);
    trace.docs.push({
      kind: doc.kind,
      turn: doc.vars.turn,
      ...(doc.vars.retry ? { retry: doc.vars.retry } : {}),
      ...(doc.vars.error ? { error: doc.vars.error } : {}),
      status: answer.status,
      spoken: doc.spoken,
      base: answer.base,
    });
    await opts.onDocument?.(trace, doc);
    if (answer.status !== 200) {
      trace.outcome = 'badfetch';
      return trace;
    }
    if (doc.kind === 'end' || doc.kind === 'error') {
      trace.outcome = doc.kind;
      return trace;
    }
    if (!doc.submit) throw new Error(`a ${doc.kind} document without a submit: ${answer.xml}`);
    path = doc.submit.path;
    const values: Record<string, string> = { ...doc.vars };
    if (doc.kind === 'ask') {
      const text = said.shift();
      if (text === undefined) throw new Error(`asked again with nothing left to say: "${doc.spoken}"`);
      Object.assign(values, {
        message: text,
        interpretation: text,
        confidence: '0.900000',
        inputmode: 'voice',
      });
    } else if (doc.kind === 'wait') {
      trace.waits++;
      await sleep(opts.holdMs ?? 50);
    }
    params = Object.fromEntries(
      doc.submit.namelist.filter((n) => values[n] !== undefined).map((n) => [n, values[n]!]),
    );
  }
  return trace;
}
