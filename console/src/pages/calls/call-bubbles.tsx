/** A call's transcript as speech bubbles: what the caller said (ASR confidence, input mode, a no-match and why) and what each answered document said. */
import type { TurnTrace } from '../../api/client.js';
import { confidenceOf, percent } from './turn-chart.js';
import { spokenText } from './vxml-document.js';

const CALLER_EVENT: Record<string, string> = {
  noinput: '(silence)',
  hangup: '(hung up)',
  maxretries: '(no more retries)',
  recording: '(a recording)',
};

function callerLine(t: TurnTrace): string | null {
  if (t.event === 'input' || t.event === 'nomatch') {
    const said = t.asr?.utterance ?? t.request.message ?? t.request.utterance;
    return said === undefined || said === '' ? '(no words)' : String(said);
  }
  if (t.event === 'transfer') return `(transfer ended: ${t.transferResult ?? 'no result'})`;
  return CALLER_EVENT[t.event] ?? null;
}

function agentLine(t: TurnTrace): string | null {
  if (t.marks.includes('duplicate')) return null;
  if (t.document.xml)
    return spokenText(t.document.xml) || `(a ${t.document.kind} document with nothing to say)`;
  return `(a ${t.document.kind} document)`;
}

export function CallBubbles({ turns }: { turns: TurnTrace[] }) {
  if (turns.length === 0) return <p class="empty">No turn of this call is kept.</p>;
  return (
    <ol
      class="turns call-bubbles"
      data-testid="call-bubbles"
      tabIndex={0}
      aria-label="What was said, turn by turn"
    >
      {turns.flatMap((t) => {
        const out = [];
        const caller = callerLine(t);
        const confidence = confidenceOf(t);
        const mode = t.asr?.Inputmode ?? t.request.inputmode;
        if (caller !== null) {
          out.push(
            <li
              key={`${t.turn}-${t.receivedAt}-in`}
              class={`turn caller${t.nomatch ? ' nomatch' : ''}`}
              data-testid="caller-bubble"
            >
              <p class="who">
                <strong>Caller</strong> · turn {t.turn} ·{' '}
                <time dateTime={new Date(t.receivedAt).toISOString()}>
                  {new Date(t.receivedAt).toLocaleTimeString()}
                </time>
              </p>
              <p class="said">{caller}</p>
              {confidence !== undefined || mode !== undefined ? (
                <p class="asr small">
                  ASR confidence <strong>{percent(confidence)}</strong> · input mode{' '}
                  <strong>{mode ?? '–'}</strong>
                </p>
              ) : null}
              {t.nomatch ? (
                <p class="asr small warn">
                  {t.nomatch.kind}: {t.nomatch.reason.replace('_', ' ')}
                </p>
              ) : null}
            </li>,
          );
        }
        const agent = agentLine(t);
        if (agent !== null) {
          out.push(
            <li key={`${t.turn}-${t.receivedAt}-out`} class="turn agent" data-testid="agent-bubble">
              <p class="who">
                <strong>Agent</strong> · {t.document.kind} document
              </p>
              <p class="said">{agent}</p>
            </li>,
          );
        }
        return out;
      })}
    </ol>
  );
}
