/**
 * Model connections through the public connections API (with an API key the console creates for
 * itself): the list, one connection with its fields masked as the API masks them, and creation
 * (hosted providers by form; the custom API provider as a JSON body, as the API reference shows).
 */
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { createConnection, getConnection, listConnections } from '../api/client.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';
import { ApiKeys } from './api-keys.js';

const PROVIDERS = ['HostedModelA', 'HostedModelB', 'HostedModelC', 'API'] as const;
const API_TEMPLATE = `{
  "provider": "API",
  "connectionName": "My model",
  "model": "my-model",
  "endpoint": "https://models.example.com/v1/chat",
  "headers": [{ "key": "Authorization", "value": "Bearer …" }],
  "payload": { "prompt": "{{prompt}}" },
  "outputPath": "choices[0].message.content"
}`;

function CreateConnection({ onCreated }: { onCreated: (id: string) => void }) {
  const [provider, setProvider] = useState<(typeof PROVIDERS)[number]>('HostedModelA');
  const [v, setV] = useState<Record<string, string>>({
    connectionName: '',
    model: '',
    API_KEY: '',
    api_version: '',
    your_resource_name: '',
    deployment_id: '',
  });
  const [body, setBody] = useState(API_TEMPLATE);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const input = (key: string, label: string, type = 'text') => (
    <div class="field">
      <label for={`c-${key}`}>{label}</label>
      <input
        id={`c-${key}`}
        type={type}
        autoComplete="off"
        value={v[key]}
        onInput={(e) => setV({ ...v, [key]: e.currentTarget.value })}
      />
    </div>
  );
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      let payload: unknown;
      if (provider === 'API') payload = JSON.parse(body) as unknown;
      else {
        const fields: Record<string, string> = { API_KEY: v.API_KEY ?? '' };
        if (provider === 'HostedModelB')
          Object.assign(fields, {
            api_version: v.api_version,
            your_resource_name: v.your_resource_name,
            deployment_id: v.deployment_id,
          });
        payload = {
          provider,
          connectionName: v.connectionName,
          model: v.model,
          ...(provider === 'HostedModelA' ? {} : { modelType: 'EASY_INTEGRATION' }),
          fields,
        };
      }
      const created = await createConnection(payload);
      setV({ ...v, API_KEY: '' });
      onCreated(created.connectionId);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={(e) => void submit(e)} aria-labelledby="create-conn-title">
      <h2 id="create-conn-title">Create a connection</h2>
      <div class="field narrow">
        <label for="c-provider">Provider</label>
        <select
          id="c-provider"
          value={provider}
          onChange={(e) => setProvider(e.currentTarget.value as (typeof PROVIDERS)[number])}
        >
          {PROVIDERS.map((p) => (
            <option key={p} value={p}>
              {p === 'API' ? 'API (your own endpoint)' : p}
            </option>
          ))}
        </select>
      </div>
      {provider === 'API' ? (
        <div class="field wide">
          <label for="c-body">Request body (JSON)</label>
          <textarea
            id="c-body"
            rows={10}
            class="mono"
            value={body}
            onInput={(e) => setBody(e.currentTarget.value)}
          />
        </div>
      ) : (
        <div class="row wrap">
          {input('connectionName', 'Name')}
          {input('model', 'Model')}
          {input('API_KEY', 'API key', 'password')}
          {provider === 'HostedModelB' ? (
            <>
              {input('api_version', 'API version')}
              {input('your_resource_name', 'Resource name')}
              {input('deployment_id', 'Deployment id')}
            </>
          ) : null}
        </div>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Creating…' : 'Create connection'}
      </button>
      {error ? <ErrorBox error={error} title="The connection was not created" /> : null}
    </form>
  );
}

function Detail({ id }: { id: string }) {
  const load = useLoad(() => getConnection(id), [id]);
  return (
    <Loaded load={load} label="Loading the connection…">
      {(c) => (
        <section class="card" aria-labelledby="conn-title">
          <h2 id="conn-title">{c.connectionName}</h2>
          <dl class="facts">
            {Object.entries(c)
              .filter(([k]) => k !== 'fields')
              .map(([k, val]) => [
                <dt key={`t-${k}`}>{k}</dt>,
                <dd key={`d-${k}`}>{typeof val === 'string' ? val : <code>{JSON.stringify(val)}</code>}</dd>,
              ])}
          </dl>
          <h3>Fields (masked)</h3>
          <dl class="facts">
            {Object.entries(c.fields).map(([k, val]) => [
              <dt key={`t-${k}`}>{k}</dt>,
              <dd key={`d-${k}`}>
                <code>{val}</code>
              </dd>,
            ])}
          </dl>
          <a href="/console/connections">Back to the list</a>
        </section>
      )}
    </Loaded>
  );
}

export function ConnectionsPage() {
  const { params } = useRoute();
  const load = useLoad(() => listConnections(), []);
  const [notice, setNotice] = useState('');
  return (
    <section aria-labelledby="connections-title">
      <h1 id="connections-title">Model connections</h1>
      {params.connectionId ? <Detail id={params.connectionId} /> : null}
      <Loaded load={load} label="Loading connections…">
        {(data) =>
          data.connections.length === 0 ? (
            <p class="empty">No model connections yet.</p>
          ) : (
            <table class="list">
              <caption class="sr-only">Model connections</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Provider</th>
                  <th scope="col">Model</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {data.connections.map((c) => (
                  <tr key={c.connectionId}>
                    <td>
                      <a href={`/console/connections/${c.connectionId}`}>{c.connectionName}</a>
                    </td>
                    <td>{c.provider}</td>
                    <td>{c.model}</td>
                    <td>{c.status}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
      <p role="status">{notice}</p>
      <CreateConnection
        onCreated={(id) => {
          setNotice(`Created connection ${id}.`);
          load.reload();
        }}
      />
      <ApiKeys />
    </section>
  );
}
