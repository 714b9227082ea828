/**
 * The agent page: the definition in a code editor, saved with PUT …/agent (the service validates
 * it at once, a 400 listing every problem with its JSON path, shown here at its line, and trains it
 * in the background: agent-status.tsx follows the training), either published once trained or as a
 * draft (calls keep the published version; the sandbox may use the draft; the Versions tab
 * publishes it), and the diagram of its dialogs, redrawn from the editor's text as it changes.
 */
import { useMemo, useRef, useState } from 'preact/hooks';
import { needsRole, useCan } from '../../ui/roles.js';
import { ApiError, getAgent, putAgent, type AppRecord } from '../../api/client.js';
import { ErrorBox, Loaded } from '../../ui/status.js';
import { useLoad } from '../../ui/use-load.js';
import { useUnsavedGuard } from '../../ui/use-unsaved-guard.js';
import { AgentEditor, type EditorHandle } from './agent-editor.js';
import { AgentStatusView, useAgentStatus } from './agent-status.js';
import { DialogDiagram } from './dialog-diagram.js';
import { dialogGraphs, type DialogGraph } from './dialog-graph.js';
import { lineOf, locatePath } from './json-locate.js';
import { STARTER_AGENT } from './starter-agent.js';
import { TranslationsView } from './translations-view.js';

interface Located {
  path: string;
  msg: string;
  line: number | null;
  offset: number;
}

function parsed(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

function Editor({ app, initial, stored }: { app: AppRecord; initial: string; stored: boolean }) {
  const [text, setText] = useState(initial);
  /** the text as last loaded or saved: the editor's text differs from it while there are unsaved edits */
  const [savedText, setSavedText] = useState(initial);
  const guard = useUnsavedGuard(text !== savedText, 'the agent definition');
  const [busy, setBusy] = useState<'' | 'draft' | 'publish'>('');
  const [problems, setProblems] = useState<Located[]>([]);
  const [failure, setFailure] = useState<unknown>(null);
  const [saved, setSaved] = useState(
    stored
      ? 'The stored definition is shown.'
      : 'No agent is set for this app yet: a starter definition is shown.',
  );
  const training = useAgentStatus(app.streamId);
  const mayEdit = useCan('editor', app.streamId);
  const editor = useRef<EditorHandle | null>(null);
  const lastGood = useRef<DialogGraph[]>([]);
  const current = useMemo(() => parsed(text), [text]);
  const graphs = useMemo(() => {
    if (current.ok) lastGood.current = dialogGraphs(current.value);
    return lastGood.current;
  }, [current]);

  const save = async (publish: boolean) => {
    setFailure(null);
    setProblems([]);
    editor.current?.showProblems([]);
    const body = parsed(text);
    if (!body.ok) {
      setFailure(new Error(`The text is not valid JSON: ${body.message}`));
      return;
    }
    setBusy(publish ? 'publish' : 'draft');
    setSaved('');
    try {
      training.follow(await putAgent(app.streamId, body.value, { publish }));
      setSavedText(text);
      if (!publish)
        setSaved(
          'Saved as a draft: calls keep the published version until it is published on the Versions tab.',
        );
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.details.some((d) => d.path)) {
        const located = err.details.map((d): Located => {
          const range = d.path ? locatePath(text, d.path) : null;
          return {
            path: (d.path ?? '').replace(/^body\.?/, ''),
            msg: d.msg,
            line: range ? lineOf(text, range.from) : null,
            offset: range?.from ?? 0,
          };
        });
        setProblems(located);
        editor.current?.showProblems(
          err.details.map((d) => {
            const range = d.path ? locatePath(text, d.path) : null;
            return {
              from: range?.from ?? 0,
              to: range?.to ?? 1,
              message: `${(d.path ?? '').replace(/^body\.?/, '') || 'definition'}: ${d.msg}`,
            };
          }),
        );
      } else setFailure(err);
    } finally {
      setBusy('');
    }
  };

  return (
    <>
      <div class="editor-head">
        <h2 id="definition-title">Definition (JSON)</h2>
        <div class="actions">
          <button
            type="button"
            disabled={busy !== '' || !mayEdit}
            aria-describedby={mayEdit ? 'agent-save-note' : 'agent-role-note'}
            onClick={() => void save(false)}
          >
            {busy === 'draft' ? 'Saving…' : 'Save draft'}
          </button>
          <button
            type="button"
            class="primary"
            disabled={busy !== '' || !mayEdit}
            aria-describedby={mayEdit ? 'agent-save-note' : 'agent-role-note'}
            onClick={() => void save(true)}
          >
            {busy === 'publish' ? 'Saving…' : 'Save the agent and publish'}
          </button>
        </div>
      </div>
      {mayEdit ? (
        <p id="agent-save-note" class="muted small">
          A draft trains for the test sandbox while calls keep the published version;{' '}
          <a href={`/console/apps/${app.streamId}/versions`}>Versions</a> lists, compares and publishes them.
        </p>
      ) : null}
      {mayEdit ? null : (
        <p id="agent-role-note" role="note">
          {needsRole('editor')} You can read the agent; an editor or owner saves it.
        </p>
      )}
      <AgentEditor
        initial={initial}
        onChange={setText}
        handle={(h) => (editor.current = h)}
        labelledBy="definition-title"
      />
      <p class="muted small" role="status">
        {current.ok ? saved : `Not valid JSON yet: ${current.message}`}
      </p>
      <AgentStatusView state={training} />
      {failure ? <ErrorBox error={failure} title="The agent was not saved" /> : null}
      {problems.length ? (
        <div class="error-box" role="alert" data-testid="agent-problems">
          <strong>
            The service refused the definition: {problems.length} problem{problems.length === 1 ? '' : 's'}
          </strong>
          <ol>
            {problems.map((p, i) => (
              <li key={i}>
                <button type="button" class="link" onClick={() => editor.current?.reveal(p.offset)}>
                  {p.line ? `Line ${p.line}` : 'Definition'}
                </button>{' '}
                <code>{p.path || '(root)'}</code>: {p.msg}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      <TranslationsView
        definition={current.ok ? current.value : undefined}
        readOnly={!mayEdit}
        onChange={(def) => editor.current?.replace(JSON.stringify(def, null, 2))}
      />
      <section aria-labelledby="diagram-title">
        <h2 id="diagram-title">Dialogs</h2>
        <DialogDiagram graphs={graphs} />
      </section>
      {guard}
    </>
  );
}

export function AgentPage({ app }: { app: AppRecord }) {
  const load = useLoad(async () => {
    try {
      return { text: JSON.stringify(await getAgent(app.streamId), null, 2), stored: true };
    } catch (err) {
      if (err instanceof ApiError && err.status === 404 && /agent/i.test(err.message))
        return { text: STARTER_AGENT, stored: false };
      throw err;
    }
  }, [app.streamId]);
  return (
    <section aria-labelledby="agent-title">
      <h1 id="agent-title">Agent</h1>
      <Loaded load={load} label="Loading the agent…">
        {(data) => <Editor app={app} initial={data.text} stored={data.stored} />}
      </Loaded>
    </section>
  );
}
