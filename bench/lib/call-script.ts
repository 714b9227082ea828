/**
 * Simulated VXML browsers for autocannon: each connection plays one call at a time through a fixed
 * script (start → "book a table" → "4" → "march third" → "yes" → end), submitting its next turn as
 * soon as it has the document, urlencoded as a browser's <submit> does, with the `turn` the
 * document declared. After the last step autocannon's request list wraps and the connection's
 * context is reset, so the next call starts with a fresh callId. A response that is not a 200
 * valid-looking VoiceXML document of the expected kind is counted as invalid and that call is
 * abandoned (setupRequest answers null, which restarts the list with a new call).
 *
 * The floor gets the same bodies (the turn is the step number: its document carries none).
 */
import type autocannon from 'autocannon';

export const turnOf = (xml: string): string | undefined =>
  /<var name="turn" expr="'(\d+)'"\s*\/>/.exec(xml)?.[1];

interface Step {
  message: string;
  inputmode?: 'voice' | 'dtmf';
  confidence?: string;
  /** What the answer must be: an ask (a <field>, a turn to submit) or the end of the call. */
  expect: 'ask' | 'end';
}

export const CALL_SCRIPT: Step[] = [
  { message: '', expect: 'ask' },
  { message: 'book a table', inputmode: 'voice', confidence: '0.900000', expect: 'ask' },
  { message: '4', inputmode: 'dtmf', confidence: '1.0', expect: 'ask' },
  { message: 'march third', inputmode: 'voice', confidence: '0.850000', expect: 'ask' },
  { message: 'yes', inputmode: 'voice', confidence: '0.950000', expect: 'end' },
];

/** The urlencoded parameters a browser submits for step i of the script. */
export function stepParams(i: number, callId: string, turn: string, from: string): Record<string, string> {
  const step = CALL_SCRIPT[i]!;
  if (i === 0) return { callId, message: '', from, to: 'agent' };
  return {
    callId,
    from,
    turn,
    message: step.message,
    interpretation: step.message,
    confidence: step.confidence ?? '0.9',
    inputmode: step.inputmode ?? 'voice',
  };
}

/** Plays the script once with fetch; throws with the offending document when a step is wrong. */
export async function playOnce(
  baseUrl: string,
  path: string,
  mode: 'turn' | 'floor',
  callId: string,
): Promise<number> {
  let turn = '';
  for (let i = 0; i < CALL_SCRIPT.length; i++) {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(
        stepParams(i, callId, mode === 'turn' ? turn : String(i), '+15550001111'),
      ).toString(),
    });
    const body = await res.text();
    const problem = checkDocument(mode, CALL_SCRIPT[i]!, res.status, body);
    if (problem)
      throw new Error(`${mode} step ${i} ("${CALL_SCRIPT[i]!.message}"): ${problem}\n${body.slice(0, 1500)}`);
    turn = turnOf(body) ?? '';
  }
  return CALL_SCRIPT.length;
}

export interface ScriptStats {
  responses: number;
  invalid: number;
  reasons: Record<string, number>;
  callsStarted: number;
  callsCompleted: number;
}

interface CallContext {
  callId?: string;
  turn?: string;
  broken?: boolean;
}

export const newStats = (): ScriptStats => ({
  responses: 0,
  invalid: 0,
  reasons: {},
  callsStarted: 0,
  callsCompleted: 0,
});

/** Why a document is not what the step expects, or null when it is. */
export function checkDocument(
  mode: 'turn' | 'floor',
  step: Step,
  status: number,
  body: string,
): string | null {
  if (status !== 200) return `status ${status}`;
  const xml = body.trim();
  if (!xml.startsWith('<?xml') || !xml.includes('<vxml') || !xml.endsWith('</vxml>')) return 'not vxml';
  if (mode === 'floor') return null;
  // the kind is the form's id (every document also carries a fetch-failure catch that returns)
  const kind = /<form id="([\w-]+)"/.exec(xml)?.[1];
  if (kind === 'error') return 'error document';
  if (kind === 'wait') return 'wait document';
  if (step.expect === 'ask') {
    if (kind !== 'ask') return 'expected an ask';
    if (!turnOf(xml)) return 'no turn';
    return null;
  }
  return kind === 'end' ? null : 'expected the end';
}

export interface ScriptOptions {
  mode: 'turn' | 'floor';
  /** Path and query (the token) every request goes to. */
  path: string;
  /** Makes callIds unique to this measure. */
  runId: string;
  stats: ScriptStats;
  from?: string;
}

const bump = (stats: ScriptStats, reason: string) => {
  stats.invalid += 1;
  stats.reasons[reason] = (stats.reasons[reason] ?? 0) + 1;
};

/** The autocannon request list of one scripted call. */
export function callRequests(opts: ScriptOptions): autocannon.Request[] {
  const { mode, path, stats } = opts;
  const from = opts.from ?? '+15550001111';
  let seq = 0;
  return CALL_SCRIPT.map((step, i): autocannon.Request => ({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    setupRequest: (req, raw) => {
      const ctx = raw as CallContext;
      let params: Record<string, string>;
      if (i === 0) {
        ctx.callId = `${opts.runId}-${(seq += 1)}`;
        stats.callsStarted += 1;
        params = stepParams(0, ctx.callId, '', from);
      } else {
        if (ctx.broken || !ctx.callId) return null as unknown as autocannon.Request;
        const turn = mode === 'turn' ? ctx.turn : String(i);
        if (!turn) return null as unknown as autocannon.Request;
        params = stepParams(i, ctx.callId, turn, from);
      }
      return { ...req, body: new URLSearchParams(params).toString() };
    },
    onResponse: (status, body, raw) => {
      const ctx = raw as CallContext;
      stats.responses += 1;
      const problem = checkDocument(mode, step, status, body);
      if (problem) {
        bump(stats, problem);
        ctx.broken = true;
        return;
      }
      if (mode === 'turn') ctx.turn = turnOf(body);
      if (i === CALL_SCRIPT.length - 1) stats.callsCompleted += 1;
    },
  }));
}
