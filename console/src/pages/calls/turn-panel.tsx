/** One turn's trace, in a panel that opens: timing, request, recognition, dialog, rules, model calls, table writes, marks and the document. */
import { Fragment, type ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { TurnTrace } from '../../api/client.js';
import { VxmlView } from './vxml-view.js';

const NOMATCH_REASON: Record<string, string> = {
  below_threshold: 'the confidence was below the threshold',
  no_match: 'the asking node could not take it',
  event: 'the browser reported it',
};

/** Why the turn went to the fallback dialog (every reason the trace can carry: a new one fails the type check). */
const FALLBACK_REASON: Record<NonNullable<TurnTrace['fallback']>['reason'], string> = {
  out_of_scope:
    'the utterance is out of scope (nearest the out-of-scope examples, or nothing in common with the intents)',
  below_threshold: "the best intent's confidence was below the threshold",
  no_dialog: 'the intent recognised has no dialog of its own',
};

const MARK_MEANING: Record<string, string> = {
  wait: 'a wait document went out (the turn outlived its deadline)',
  late: 'the turn finished after its request got a wait document',
  delivered: 'a poll delivered an answer committed earlier',
  resumed: 'another instance ran the turn again from its stored input',
  store_retry: 'a retry document resubmitted it after a store fault',
  duplicate: 'a resubmission got its answer again',
  idle: 'the gateway closed a call that stopped sending turns',
};

const position = (dialog: string | null | undefined, node: string | null | undefined): string =>
  dialog ? `${dialog}.${node ?? '?'}` : '(none)';

function Facts({ rows }: { rows: Array<[string, ComponentChildren] | null | false | undefined | ''> }) {
  return (
    <dl class="facts">
      {rows
        .filter((r): r is [string, ComponentChildren] => Boolean(r))
        .map(([k, v]) => (
          <Fragment key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </Fragment>
        ))}
    </dl>
  );
}

function Timing({ t }: { t: TurnTrace }) {
  const parts = [
    ['Store', t.timing.storeMs],
    ['Agent', t.timing.agentMs],
    ['Model', t.timing.modelMs],
    ['Render', t.timing.renderMs],
  ] as const;
  return (
    <p class="timing" data-testid="timing">
      <strong>{t.durationMs} ms</strong> in all:{' '}
      {parts.map(([k, v], i) => (
        <span key={k}>
          {i ? ' · ' : ''}
          {k} {v} ms
        </span>
      ))}
    </p>
  );
}

export function TurnPanel({ t, index }: { t: TurnTrace; index: number }) {
  const [open, setOpen] = useState(false);
  const params = Object.entries(t.request);
  return (
    <details
      class={`turn-panel${t.error || t.answer?.error ? ' failed' : ''}`}
      data-testid="turn-panel"
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>
        <span class="turn-no">Turn {t.turn}</span> <code>{t.event}</code>{' '}
        <span class="muted">→ {t.document.kind}</span> <span class="muted">· {t.durationMs} ms</span>
        {t.lang ? (
          <span class="badge lang-badge" data-testid="turn-lang" lang={t.lang}>
            <span class="sr-only">language </span>
            {t.lang}
          </span>
        ) : null}
        {t.nomatch ? <span class="badge warn-badge">{t.nomatch.kind}</span> : null}
        {t.fallback ? (
          <span class="badge warn-badge" data-testid="fallback-badge">
            fallback
          </span>
        ) : null}
        {t.marks.map((m) => (
          <span key={m} class="badge">
            {m}
          </span>
        ))}
        {t.error || t.answer?.error ? (
          <span class="badge error-badge">error {t.error ?? t.answer?.error}</span>
        ) : null}
      </summary>
      {open ? (
        <div class="turn-body">
          <Timing t={t} />
          <Facts
            rows={[
              [
                'Received',
                <time dateTime={new Date(t.receivedAt).toISOString()}>
                  {new Date(t.receivedAt).toLocaleString()}
                </time>,
              ],
              ['Instance', <code>{t.instance}</code>],
              ['Event', <code>{t.event}</code>],
              t.lang && ['Language', <code>{t.lang}</code>],
              t.transferResult !== undefined && ['Transfer result', <code>{t.transferResult}</code>],
              t.marks.length > 0 && [
                'Marks',
                <ul class="plain">
                  {t.marks.map((m) => (
                    <li key={m}>
                      <code>{m}</code>: {MARK_MEANING[m] ?? ''}
                    </li>
                  ))}
                </ul>,
              ],
              t.asr && [
                'ASR',
                <span>
                  “{t.asr.utterance}” · confidence {t.asr.confidence} · {t.asr.Inputmode}
                  {t.asr.belowThreshold ? ' · below the threshold' : ''}
                </span>,
              ],
              t.recognition && [
                'Recognition',
                <span>
                  <code>{t.recognition.intent}</code> {t.recognition.score.toFixed(2)} ({t.recognition.source}
                  ); top: {t.recognition.top.map((x) => `${x.intent} ${x.score.toFixed(2)}`).join(', ')}
                </span>,
              ],
              t.decision && [
                'Decision',
                <span data-testid="decision">
                  <code>{t.decision.outcome}</code>: {t.decision.why}
                </span>,
              ],
              t.fallback && [
                'Fallback',
                <span data-testid="fallback">
                  {FALLBACK_REASON[t.fallback.reason]} (<code>{t.fallback.reason}</code>)
                </span>,
              ],
              t.nomatch && [
                'No match',
                <span data-testid="nomatch">
                  <code>{t.nomatch.kind}</code>: {NOMATCH_REASON[t.nomatch.reason] ?? t.nomatch.reason} (
                  <code>{t.nomatch.reason}</code>)
                </span>,
              ],
              t.entities &&
                Object.keys(t.entities).length > 0 && ['Entities', <code>{JSON.stringify(t.entities)}</code>],
              [
                'Dialog and node',
                <span data-testid="node">
                  <code>{position(t.before?.dialog, t.before?.node)}</code> →{' '}
                  <code>{position(t.dialog, t.node)}</code>
                </span>,
              ],
              t.path &&
                t.path.length > 0 && [
                  'Path',
                  <span>
                    {t.path.map((p, i) => (
                      <Fragment key={i}>
                        {i ? ' → ' : ''}
                        <code>{p}</code>
                      </Fragment>
                    ))}
                  </span>,
                ],
              t.rules &&
                t.rules.length > 0 && [
                  'Rules',
                  <ul class="plain">
                    {t.rules.map((r, i) => (
                      <li key={i}>
                        <code>{r.node}</code> rule {r.rule} → <code>{r.goto}</code>
                      </li>
                    ))}
                  </ul>,
                ],
              t.answer && [
                'Answer',
                <span>
                  <code>{t.answer.action}</code>
                  {t.answer.error ? <span class="warn"> error {t.answer.error}</span> : null}
                </span>,
              ],
              t.error && ['Error', <code class="warn">{t.error}</code>],
            ]}
          />
          {t.modelCalls && t.modelCalls.length > 0 ? (
            <table class="list compact">
              <caption>Model calls</caption>
              <thead>
                <tr>
                  <th scope="col">Connection</th>
                  <th scope="col">Step</th>
                  <th scope="col">Latency</th>
                  <th scope="col">Tokens in/out</th>
                  <th scope="col">Outcome</th>
                </tr>
              </thead>
              <tbody>
                {t.modelCalls.map((m, i) => (
                  <tr key={i}>
                    <td>
                      <code>{m.connectionId}</code>
                    </td>
                    <td>{m.step ?? '–'}</td>
                    <td>{m.latencyMs} ms</td>
                    <td>
                      {m.inputTokens ?? '–'} / {m.outputTokens ?? '–'}
                    </td>
                    <td>
                      {m.outcome}
                      {m.error ? ` (${m.error})` : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {t.tableWrites && t.tableWrites.length > 0 ? (
            <table class="list compact">
              <caption>Table writes</caption>
              <thead>
                <tr>
                  <th scope="col">Table</th>
                  <th scope="col">Step</th>
                  <th scope="col">Latency</th>
                  <th scope="col">Outcome</th>
                </tr>
              </thead>
              <tbody>
                {t.tableWrites.map((w, i) => (
                  <tr key={i}>
                    <td>
                      <code>{w.table}</code>
                    </td>
                    <td>{w.step ?? '–'}</td>
                    <td>{w.latencyMs} ms</td>
                    <td>
                      {w.outcome}
                      {w.error ? ` (${w.error})` : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          <h3>Request</h3>
          {params.length === 0 ? (
            <p class="empty">No parameters.</p>
          ) : (
            <dl class="facts params" data-testid="request-params">
              {params.map(([k, v]) => (
                <Fragment key={k}>
                  <dt>
                    <code>{k}</code>
                  </dt>
                  <dd>
                    <code>{String(v)}</code>
                  </dd>
                </Fragment>
              ))}
            </dl>
          )}
          <h3>Document</h3>
          <VxmlView
            xml={t.document.xml}
            kind={t.document.kind}
            label={`The VoiceXML document of turn ${t.turn} (${index + 1})`}
          />
        </div>
      ) : null}
    </details>
  );
}
