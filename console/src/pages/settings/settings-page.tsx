/**
 * IVR settings: a form generated from the JSON Schema that /openapi.json publishes for
 * PUT …/ivr-settings (the schema the service validates with), validated as the operator types
 * (@cfworker/json-schema, which runs without eval under the page's CSP), and a review of what will
 * change before the save. The service's own 400 problems are shown at their fields too.
 */
import { useMemo, useState } from 'preact/hooks';
import { Validator } from '@cfworker/json-schema';
import { ApiError, getSettings, putSettings, settingsSchema, type AppRecord } from '../../api/client.js';
import { ErrorBox, Loaded } from '../../ui/status.js';
import { useLoad } from '../../ui/use-load.js';
import { useUnsavedGuard } from '../../ui/use-unsaved-guard.js';
import { diff, locationToKey, setAt, type Json, type JsonSchema, type Path } from './json-value.js';
import { SchemaFields } from './schema-form.js';

const shown = (v: Json | undefined): string => (v === undefined ? '(not set)' : JSON.stringify(v));

function errorsOf(validator: Validator, value: Json | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const result = validator.validate(value);
  if (result.valid) return out;
  // the deepest problems first: wrappers (properties, oneOf…) only where nothing deeper was said
  const wrappers = new Set(['properties', 'items', 'allOf', 'additionalProperties', '$ref', 'prefixItems']);
  for (const e of result.errors) {
    const key = locationToKey(e.instanceLocation);
    if (wrappers.has(e.keyword) || out.has(key)) continue;
    out.set(key, e.error.replace(/^Instance /, 'The value '));
  }
  return out;
}

function Form({ app, schema, stored }: { app: AppRecord; schema: JsonSchema; stored: Json }) {
  const validator = useMemo(() => new Validator(schema as never, '2020-12', false), [schema]);
  const [saved, setSaved] = useState<Json>(stored);
  const [value, setValue] = useState<Json | undefined>(stored);
  const [reviewing, setReviewing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<Map<string, string>>(new Map());
  const [failure, setFailure] = useState<unknown>(null);
  const [notice, setNotice] = useState('');
  const errors = useMemo(() => {
    const local = errorsOf(validator, value);
    for (const [k, v] of serverErrors) if (!local.has(k)) local.set(k, v);
    return local;
  }, [validator, value, serverErrors]);
  const changes = useMemo(() => diff(saved, value), [saved, value]);
  const guard = useUnsavedGuard(changes.length > 0, 'the IVR settings');

  const onChange = (path: Path, next: Json | undefined) => {
    setValue((v) => setAt(v, path, next));
    setReviewing(false);
    setNotice('');
    if (serverErrors.size) setServerErrors(new Map());
  };
  const save = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const answer = (await putSettings(app.streamId, value)) as Json;
      setSaved(answer);
      setValue(answer);
      setReviewing(false);
      setNotice(`Saved at ${new Date().toLocaleTimeString()}.`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        setServerErrors(
          new Map(err.details.filter((d) => d.path).map((d) => [d.path!.replace(/^body\.?/, ''), d.msg])),
        );
      }
      setFailure(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      class="settings-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (errors.size === 0 && changes.length) setReviewing(true);
      }}
    >
      <SchemaFields
        name="IVR settings"
        schema={schema}
        path={[]}
        props={{ schema, value, onChange, errors }}
      />
      <div class="sticky-actions">
        <p role="status" class="small">
          {errors.size
            ? `${errors.size} field${errors.size === 1 ? ' needs' : 's need'} attention.`
            : changes.length
              ? `${changes.length} unsaved change${changes.length === 1 ? '' : 's'}.`
              : notice || 'No changes.'}
        </p>
        <button
          type="button"
          disabled={!changes.length || busy}
          onClick={() => {
            setValue(saved);
            setServerErrors(new Map());
            setReviewing(false);
          }}
        >
          Discard changes
        </button>
        <button type="submit" class="primary" disabled={errors.size > 0 || !changes.length || busy}>
          Review changes
        </button>
      </div>
      {reviewing ? (
        <section class="card diff" aria-labelledby="diff-title" data-testid="settings-diff">
          <h2 id="diff-title" tabIndex={-1} ref={(h) => h?.focus()}>
            What will change
          </h2>
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Setting</th>
                <th scope="col">Now</th>
                <th scope="col">After saving</th>
              </tr>
            </thead>
            <tbody>
              {changes.map((c) => (
                <tr key={c.path}>
                  <td>
                    <code>{c.path}</code>
                  </td>
                  <td class="before">{shown(c.before)}</td>
                  <td class="after">{shown(c.after)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div class="actions">
            <button type="button" onClick={() => setReviewing(false)}>
              Back to the form
            </button>
            <button type="button" class="primary" disabled={busy} onClick={() => void save()}>
              {busy ? 'Saving…' : 'Save these changes'}
            </button>
          </div>
        </section>
      ) : null}
      {failure ? <ErrorBox error={failure} title="The settings were not saved" /> : null}
      {guard}
    </form>
  );
}

export function SettingsPage({ app }: { app: AppRecord }) {
  const load = useLoad(async () => {
    const [schema, stored] = await Promise.all([settingsSchema(), getSettings(app.streamId)]);
    const typed: JsonSchema = schema;
    return { schema: typed, stored: stored as Json };
  }, [app.streamId]);
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">IVR settings</h1>
      <p class="muted">
        The defaults every VoiceXML document of this app starts from; a node of the agent may override them.
      </p>
      <Loaded load={load} label="Loading the settings…">
        {(data) => <Form app={app} schema={data.schema} stored={data.stored} />}
      </Loaded>
    </section>
  );
}
