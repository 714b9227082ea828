/**
 * Batch tests: upload a suite (CSV or JSON) with the operator API, start a run and follow it with
 * the public batch-test API (a progress bar), then read its result file: results per utterance,
 * precision/recall/F1 per intent as a chart, the confusion matrix (None, the fallback, included),
 * and the CSV to download. From the run's result: in-scope accuracy beside the false-accept rate
 * (out-of-scope utterances routed to an intent) and the reliability chart of the scores. The
 * suite and run are in the URL (?suite=…&run=…), so a run's page can be opened again.
 */
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import {
  ApiError,
  getSuite,
  putSuite,
  resultCsv,
  runStatus,
  runSuite,
  type AppRecord,
  type RunStatus,
  type SuiteSummary,
  type SuiteUtterance,
} from '../../api/client.js';
import { useConfirm } from '../../ui/confirm-dialog.js';
import { ErrorBox, Loading } from '../../ui/status.js';
import { readRunResults, type RunResults } from './run-results.js';
import { ConfusionMatrix } from './confusion-matrix.js';
import { ReliabilityChart } from './reliability-chart.js';
import { ScoreChart, pct } from './score-chart.js';
import { readSuiteFile } from './suite-file.js';

const POLL_MS = 1500;

/** The suite stored under this name, or null when there is none. */
async function storedSuite(streamId: string, name: string): Promise<SuiteSummary | null> {
  try {
    return await getSuite(streamId, name);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

function UploadSuite({
  app,
  suite,
  onSuite,
}: {
  app: AppRecord;
  suite: string;
  onSuite: (name: string, count: number) => void;
}) {
  const [name, setName] = useState(suite || 'smoke');
  const [parsed, setParsed] = useState<{ utterances: SuiteUtterance[] } | { problems: string[] } | null>(
    null,
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [confirm, ask] = useConfirm();
  const readFile = async (file: File | undefined) => {
    setError(null);
    if (!file) return setParsed(null);
    const r = readSuiteFile(file.name, await file.text());
    setParsed(r.ok ? { utterances: r.utterances } : { problems: r.problems });
  };
  const upload = async (e: Event) => {
    e.preventDefault();
    if (!parsed || !('utterances' in parsed)) return;
    const suiteName = name.trim();
    setBusy(true);
    setError(null);
    try {
      // the API replaces a suite stored under the same name: ask first
      const old = await storedSuite(app.streamId, suiteName);
      if (old) {
        const ok = await ask({
          title: `Replace the suite “${suiteName}”?`,
          body: (
            <p>
              “{suiteName}” exists, with {old.utteranceCount} utterance{old.utteranceCount === 1 ? '' : 's'}{' '}
              (changed {new Date(old.updatedOn).toLocaleString()}). Uploading replaces them with the{' '}
              {parsed.utterances.length} of this file. To keep it, cancel and give another suite name.
            </p>
          ),
          confirmLabel: 'Replace the suite',
          danger: true,
        });
        if (!ok) return;
      }
      const stored = await putSuite(app.streamId, suiteName, parsed.utterances);
      onSuite(stored.name, stored.utteranceCount);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={(e) => void upload(e)} aria-labelledby="suite-title">
      <h2 id="suite-title">1. Upload a test suite</h2>
      <div class="row">
        <div class="field">
          <label for="suite-name">Suite name</label>
          <input
            id="suite-name"
            required
            maxLength={100}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="suite-file">Suite file (CSV or JSON)</label>
          <input
            id="suite-file"
            type="file"
            accept=".csv,.json,text/csv,application/json"
            aria-describedby="suite-file-help"
            onChange={(e) => void readFile(e.currentTarget.files?.[0])}
          />
        </div>
      </div>
      <p id="suite-file-help" class="help">
        CSV: a header row <code>utterance,intent,entities</code> (entities optional, written{' '}
        <code>name=value; name=value</code>; intent <code>None</code> when no intent is expected). JSON:{' '}
        <code>{'{"utterances": [{"utterance": "…", "intent": "…"}]}'}</code>.
      </p>
      {parsed && 'problems' in parsed ? (
        <div class="error-box" role="alert">
          <strong>The file cannot be used</strong>
          <ul>
            {parsed.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {parsed && 'utterances' in parsed ? (
        <p role="status">{parsed.utterances.length} utterances read.</p>
      ) : null}
      <button type="submit" class="primary" disabled={busy || !parsed || !('utterances' in parsed)}>
        {busy ? 'Uploading…' : 'Upload the suite'}
      </button>
      {error ? <ErrorBox error={error} title="The suite was not stored" /> : null}
      {confirm}
    </form>
  );
}

function Progress({ status }: { status: RunStatus }) {
  const total = status.totalUtterances ?? status.utterance_count;
  const ran = status.status === 'completed' ? total : (status.utterance_ran ?? 0);
  const percent =
    status.status === 'completed' ? 100 : Math.round(status.percentage ?? (total ? (ran * 100) / total : 0));
  return (
    <div class="progress-block">
      <label for="run-progress">
        Run {status._id}: {status.status} · {ran} of {total} utterances ·{' '}
        <span data-testid="run-percent">{percent}%</span>
      </label>
      <progress id="run-progress" max={100} value={percent} data-testid="run-progress">
        {percent}%
      </progress>
    </div>
  );
}

const share = (v: number | null | undefined): string =>
  v === null || v === undefined ? 'n/a' : `${(v * 100).toFixed(1)}%`;

/** In-scope accuracy beside the false-accept rate, each with the counts behind it; absent for older runs. */
function Rejection({ result }: { result: RunStatus['result'] }) {
  const c = result.results;
  if (result.falseAcceptRate === undefined || !c)
    return (
      <p class="muted">
        This run was stored before runs reported out-of-scope figures: run it again to see them.
      </p>
    );
  return (
    <dl class="facts" data-testid="rejection-facts">
      <dt>In-scope accuracy</dt>
      <dd data-testid="in-scope-accuracy">
        {share(result.inScopeAccuracy)}{' '}
        <span class="muted">
          ({c.inScopeCorrectCount ?? 0} of {c.inScopeCount ?? 0} expecting an intent routed to it)
        </span>
      </dd>
      <dt>False-accept rate</dt>
      <dd data-testid="false-accept-rate">
        {share(result.falseAcceptRate)}{' '}
        <span class="muted">
          ({c.falseAcceptCount ?? 0} of {c.outOfScopeCount ?? 0} expecting None routed to an intent)
        </span>
      </dd>
      <dt>False rejects</dt>
      <dd>
        {c.falseRejectCount ?? 0} <span class="muted">(expecting an intent, sent to the fallback)</span>
      </dd>
    </dl>
  );
}

function Results({ status, results }: { status: RunStatus; results: RunResults }) {
  const r = status.result;
  // the service's matrix always has None; a run stored before it had one is read from its file
  const matrix = r.confusionMatrix ?? { labels: results.labels, matrix: results.matrix };
  const withOutcome = results.rows.some((row) => row.outcome !== '');
  return (
    <section class="card" aria-labelledby="results-title">
      <h2 id="results-title">3. Results</h2>
      <Rejection result={r} />
      <dl class="facts">
        <dt>Precision</dt>
        <dd>{r.precision ?? '-'}</dd>
        <dt>Recall</dt>
        <dd>{r.recall ?? '-'}</dd>
        <dt>F1</dt>
        <dd>{r.f1_score ?? '-'}</dd>
      </dl>
      {r.fileUrl ? (
        <p>
          <a href={r.fileUrl} download class="button">
            Download the results (CSV)
          </a>
        </p>
      ) : null}
      {results.intents.length ? (
        <ScoreChart intents={results.intents} />
      ) : (
        <p class="empty">No intent was expected or matched.</p>
      )}
      <ConfusionMatrix labels={matrix.labels} matrix={matrix.matrix} />
      {r.calibration ? <ReliabilityChart ece={r.calibration.ece} bins={r.calibration.bins} /> : null}
      <details open={results.rows.length <= 50}>
        <summary>Results per utterance ({results.rows.length})</summary>
        <div class="table-scroll" tabIndex={0} role="group" aria-label="Results per utterance">
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Utterance</th>
                <th scope="col">Expected</th>
                <th scope="col">Matched</th>
                <th scope="col">Score</th>
                <th scope="col">Result</th>
                {withOutcome ? <th scope="col">Outcome</th> : null}
              </tr>
            </thead>
            <tbody>
              {results.rows.map((row, i) => (
                <tr key={i} class={row.expected === row.matched ? '' : 'miss'}>
                  <td>{row.utterance}</td>
                  <td>{row.expected}</td>
                  <td>{row.matched}</td>
                  <td>{row.score}</td>
                  <td>{row.resultType}</td>
                  {withOutcome ? <td>{row.outcome}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
      <p class="muted small">
        Per intent: {results.intents.map((i) => `${i.intent} F1 ${pct(i.f1)}`).join(', ')}
      </p>
    </section>
  );
}

function Run({
  app,
  suite,
  runId,
  onRun,
}: {
  app: AppRecord;
  suite: string;
  runId: string;
  onRun: (id: string) => void;
}) {
  const [status, setStatus] = useState<RunStatus | null>(null);
  const [results, setResults] = useState<RunResults | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setStatus(null);
    setResults(null);
    setError(null);
    if (!runId) return;
    let stop = false;
    let timer = 0;
    const poll = async () => {
      try {
        const s = await runStatus(app.streamId, suite, runId);
        if (stop) return;
        setStatus(s);
        if (s.status === 'running') timer = window.setTimeout(() => void poll(), POLL_MS);
        else if (s.status === 'completed' && s.result.fileUrl)
          setResults(readRunResults(await resultCsv(s.result.fileUrl)));
      } catch (err) {
        if (!stop) setError(err);
      }
    };
    void poll();
    return () => {
      stop = true;
      window.clearTimeout(timer);
    };
  }, [app.streamId, suite, runId]);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      onRun((await runSuite(app.streamId, suite))._id);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <section class="card" aria-labelledby="run-title">
        <h2 id="run-title">2. Run it</h2>
        <p>
          Suite <strong>{suite}</strong>. A run asks the agent&apos;s intent recognizer for every utterance.
        </p>
        <button
          type="button"
          class="primary"
          disabled={busy || status?.status === 'running'}
          onClick={() => void start()}
        >
          {busy ? 'Starting…' : 'Start a run'}
        </button>
        {runId && !status && !error ? <Loading label="Reading the run…" /> : null}
        {status ? <Progress status={status} /> : null}
        {status?.status === 'failed' ? (
          <ErrorBox error={new Error(status.result.reason ?? 'The run failed')} title="The run failed" />
        ) : null}
        {error ? <ErrorBox error={error} /> : null}
      </section>
      {status?.status === 'completed' && !results && !error ? <Loading label="Reading the results…" /> : null}
      {status && results ? <Results status={status} results={results} /> : null}
    </>
  );
}

export function TestRunsPage({ app }: { app: AppRecord }) {
  const { query, path, route } = useLocation();
  const suite = query.suite ?? '';
  const runId = query.run ?? '';
  const go = (q: Record<string, string>) => route(`${path}?${new URLSearchParams(q)}`, true);
  return (
    <section aria-labelledby="runs-title">
      <h1 id="runs-title">Test runs</h1>
      <UploadSuite app={app} suite={suite} onSuite={(name) => go({ suite: name })} />
      {suite ? (
        <Run app={app} suite={suite} runId={runId} onRun={(id) => go({ suite, run: id })} />
      ) : (
        <p class="muted">Upload a suite to run it.</p>
      )}
    </section>
  );
}
