/**
 * How a turn lands: its history messages and the session's commit (which releases the call's lock),
 * shared by the turn loop (call-turn-service.ts) and the idle sweep (idle-call-sweeper.ts), and the
 * message that records a call's end by a hang-up.
 */
import { randomUUID } from 'node:crypto';
import type { TurnResult } from '../agent/index.js';
import { sha256 } from '../platform/index.js';
import type { AnswerSpec, CallSession } from './call-session.js';
import type { CallSessionRepository } from './call-session-repository.js';
import type { HistoryPort, TurnMessage } from './ivr-ports.js';

/** Deterministic message ids, so a re-run of a turn never records it twice. */
export const messageId = (callId: string, turn: number, type: string): string => {
  const h = sha256(`${callId}\u0000${turn}\u0000${type}`);
  return `ms-${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** The text history shows for a call that ended by a hang-up. */
export const HUNG_UP = 'hung up';

/**
 * The caller's side of a hang-up as a history message at `at`: `hangup` tag `caller` (the browser
 * reported it) or `idle` (the gateway closed a call that stopped sending turns).
 */
export function hungUpMessage(
  s: CallSession,
  turn: number,
  lang: string,
  at: number,
  cause: 'caller' | 'idle',
): TurnMessage {
  return {
    id: messageId(s.callId, turn, 'in'),
    streamId: s.streamId,
    userId: s.userId,
    identities: s.from ? [s.callId, s.from] : [s.callId],
    sessionId: s.sessionId,
    callId: s.callId,
    type: 'incoming',
    text: HUNG_UP,
    channelUId: s.from ?? s.callId,
    createdOn: at,
    lang,
    tags: { hangup: cause },
  };
}

/**
 * The recognition tags of what the caller said: `intent` (the intent taken, or the recognizer's
 * answer, `None` when it rejected), `intentScore` (its confidence, 3 decimals), `nluDecision`
 * (accept, confirm, choose, reject) and `nluReason` (confident, grammar, confirmed, chosen, unsure,
 * always, ambiguous, out_of_scope, below_threshold, denied), `nluIntents` (the two asked between or
 * the ones denied, comma-separated). Absent on a turn that recognised nothing.
 */
export function recognitionTags(result: TurnResult | null): Record<string, string> | undefined {
  const r = result?.recognition;
  const d = result?.decision;
  if (!r && !d) return undefined;
  const tags: Record<string, string> = {};
  const taken = d && (d.outcome === 'accept' || d.outcome === 'confirm') ? d.intent : undefined;
  const intent = taken ?? r?.intent;
  if (intent !== undefined) tags.intent = intent;
  if (r) tags.intentScore = r.score.toFixed(3);
  if (d) {
    tags.nluDecision = d.outcome;
    tags.nluReason = d.reason;
    if ('intents' in d && d.intents?.length) tags.nluIntents = d.intents.join(',');
  }
  return tags;
}

/**
 * A committed turn's history messages: the hang-up the browser reported, what the caller said (with
 * the turn's trace id: the OpenTelemetry trace's when there is one, else a `tr-<uuid>` of its own,
 * and the recognition tags), what the agent said.
 */
export function turnMessages(
  app: { streamId: string; lang: string },
  s: CallSession,
  text: string,
  answer: AnswerSpec,
  result: TurnResult | null,
  now: number,
  traceId?: string,
): TurnMessage[] {
  const turn = s.last!.turn;
  const identities = s.from ? [s.callId, s.from] : [s.callId];
  const channelUId = s.from ?? s.callId;
  // the call's language (issue 43): the answer's, which the caller may have changed this turn
  const lang = answer.language ?? app.lang;
  // literals of one shape (no spreads): this runs on every turn
  const message = (id: string, type: TurnMessage['type'], said: string, createdOn: number): TurnMessage => ({
    id,
    streamId: app.streamId,
    userId: s.userId,
    identities,
    sessionId: s.sessionId,
    callId: s.callId,
    type,
    text: said,
    channelUId,
    createdOn,
    lang,
  });
  const out: TurnMessage[] = [];
  if (s.last!.event === 'hangup') out.push(hungUpMessage(s, turn, lang, now, 'caller'));
  if (text) {
    const m = message(messageId(s.callId, turn, 'in'), 'incoming', text, now - 1);
    m.traceId = traceId ?? `tr-${randomUUID()}`;
    const asr = s.state?.lastMessage?.asrMetaData;
    if (asr) m.asrMetaData = asr;
    const tags = recognitionTags(result);
    if (tags) m.tags = tags;
    out.push(m);
  }
  const said = result?.promptText ?? answer.prompt.map((p) => ('text' in p ? p.text : '')).join(' ');
  if (said.trim()) out.push(message(messageId(s.callId, turn, 'out'), 'outgoing', said, now));
  return out;
}

/**
 * Records the turn's messages and commits the session (releasing the lock); false when the lock
 * was lost. Where the store applies them in one step (memory, a single Redis node), both land or
 * neither. Elsewhere (a Redis Cluster: the app's history and the call's session are in other
 * slots) history goes first, then the commit: a process that dies between the two leaves the turn
 * uncommitted, so it runs again and its messages (deterministic ids) are not recorded twice. (Both
 * in flight together lost messages when an instance was killed after the commit landed.) A turn's
 * trace is not in the commit: the trace writer sends it after the answer (TurnTracePort).
 */
export async function commitWithHistory(
  sessions: CallSessionRepository,
  history: HistoryPort,
  next: CallSession,
  token: string,
  messages: TurnMessage[],
): Promise<boolean> {
  const prepared = history.prepare?.(messages) ?? null;
  if (prepared) {
    const outcome = await sessions.commitWith(next, token, prepared);
    if (outcome === 'ok') prepared.applied();
    if (outcome !== 'refused') return outcome === 'ok';
    // a history guard refused the step (a message already stored, a session's bookkeeping changed,
    // the app deleted): record reads the store and retries, or refuses the deleted app
  }
  await history.record(messages);
  return sessions.commit(next, token);
}
