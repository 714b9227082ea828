/**
 * What the operator sees of a call: the field waiting now and what it can hear (its grammars), the
 * transcript with timings (each request, and the document that came back collapsed), the events as
 * they were thrown, and at the end how the call ended and what it returned.
 */
import { Fragment } from 'preact';
import type { InputRequest, CallResult } from '../../../../sandbox/browser.js';
import type { TranscriptEntry } from './web-transcript.js';

/** Webhook tokens in a URL inside a message, shown by their start only (as the transcript masks them). */
export const hideTokens = (text: string): string =>
  text.replace(/([?&](?:token|auth)=)([^&\s"]{0,6})[^&\s"]*/gi, '$1$2***');

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

export function WaitingField({ request }: { request: InputRequest | null }) {
  if (!request)
    return (
      <p class="muted" data-testid="field-waiting">
        No field is listening right now.
      </p>
    );
  return (
    <div data-testid="field-waiting">
      <p>
        Listening: field <code data-testid="field-name">{request.fieldName}</code>
        {request.depth > 0 ? (
          <span class="muted"> (in the agent, depth {request.depth})</span>
        ) : (
          <span class="muted"> (top document)</span>
        )}
        {request.bargein === false ? (
          <span class="muted"> · no barge-in: prompts play to the end</span>
        ) : null}
      </p>
      {request.grammars && request.grammars.length > 0 ? (
        <ul class="grammars" aria-label="What can be said or keyed">
          {request.grammars.map((g, i) => (
            <li key={i}>
              <span class="badge">{g.mode === 'dtmf' ? 'keys' : 'speech'}</span> <code>{g.label}</code>
              {g.phrases.length > 0 ? <span class="phrases">: {g.phrases.join(' · ')}</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">Accepts: {request.modes.join(', ')}</p>
      )}
    </div>
  );
}

const ICON: Record<TranscriptEntry['kind'], string> = {
  say: 'prompt',
  unheard: 'unheard',
  caller: 'caller',
  recognized: 'result',
  fetch: 'request',
  fetched: 'answer',
  event: 'event',
  note: 'call',
  log: 'log',
  transfer: 'transfer',
  line: '',
};

function EntryText({ entry }: { entry: TranscriptEntry }) {
  if (entry.kind === 'fetched' && entry.body !== undefined) {
    return (
      <details>
        <summary>{entry.text}</summary>
        <pre class="document" tabIndex={0} aria-label="The document that came back">
          {entry.body}
        </pre>
      </details>
    );
  }
  return <span>{hideTokens(entry.text)}</span>;
}

export function TranscriptView({ entries }: { entries: TranscriptEntry[] }) {
  if (entries.length === 0) return <p class="empty">Nothing yet: start a call.</p>;
  return (
    <ol class="call-transcript" data-testid="call-transcript">
      {entries.map((e) => (
        <li key={e.id} class={`entry ${e.kind}`} data-kind={e.kind}>
          <span class="at">{seconds(e.at)}</span>
          {ICON[e.kind] ? <span class="kind">{ICON[e.kind]}</span> : <span class="kind" aria-hidden="true" />}
          <EntryText entry={e} />
        </li>
      ))}
    </ol>
  );
}

export function EventsView({ entries }: { entries: TranscriptEntry[] }) {
  const events = entries.filter((e) => e.kind === 'event' && e.event);
  if (events.length === 0) return <p class="empty">No event thrown yet.</p>;
  return (
    <ol class="call-events" data-testid="call-events">
      {events.map((e) => (
        <li key={e.id}>
          <span class="at">{seconds(e.at)}</span> <code>{e.event?.name}</code>{' '}
          {e.event?.message ? <span>{hideTokens(e.event.message)}</span> : null}{' '}
          <span class={e.event?.caught ? 'muted' : 'warn'}>
            {e.event?.caught ? `caught (depth ${e.event.depth})` : `not caught (depth ${e.event?.depth})`}
          </span>
        </li>
      ))}
    </ol>
  );
}

const ENDINGS: Record<CallResult['ended'], string> = {
  return: 'the agent returned',
  disconnect: 'the line was hung up',
  exit: 'a document exited',
  error: 'an error ended it',
};

export function CallEnded({ result, inspectorHref }: { result: CallResult; inspectorHref: string }) {
  const values = Object.entries(result.result ?? {});
  return (
    <section class="card" aria-labelledby="call-end-title" data-testid="call-ended">
      <h2 id="call-end-title">The call ended</h2>
      <dl class="facts">
        <dt>How</dt>
        <dd data-testid="call-ending">
          <code>{result.ended}</code>: {ENDINGS[result.ended]}
        </dd>
        {result.error ? (
          <>
            <dt>Error</dt>
            <dd class="warn">{hideTokens(result.error)}</dd>
          </>
        ) : null}
        {result.failure ? (
          <>
            <dt>Stopped</dt>
            <dd class="warn">{hideTokens(result.failure)}</dd>
          </>
        ) : null}
        <dt>Values returned</dt>
        <dd>
          {values.length === 0 ? (
            <span class="muted">none</span>
          ) : (
            <dl class="facts returned" data-testid="call-returned">
              {values.map(([k, v]) => (
                <Fragment key={k}>
                  <dt>{k}</dt>
                  <dd>
                    <code>{typeof v === 'string' ? v : JSON.stringify(v)}</code>
                  </dd>
                </Fragment>
              ))}
            </dl>
          )}
        </dd>
      </dl>
      <p>
        <a href={inspectorHref}>Open this call in the inspector</a>
      </p>
    </section>
  );
}
