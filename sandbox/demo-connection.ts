/**
 * Creates the model connection the demo agent's model node uses, through the public API as an
 * operator would: an API key with the connections scopes, then an OpenAI-style API connection to
 * `endpointUrl`. Without a model there, the node says its error prompt and the call goes on.
 */

/** No model answers here (the .invalid domain never resolves). */
export const UNREACHABLE_MODEL_URL = 'https://model.invalid/v1/chat/completions';

export interface DemoConnectionOptions {
  /** Sent as `Authorization: Bearer <key>` when given. */
  apiKey?: string;
  model?: string;
}

async function post(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** The new connection's id. */
export async function createDemoConnection(
  baseUrl: string,
  adminToken: string,
  endpointUrl = UNREACHABLE_MODEL_URL,
  opts: DemoConnectionOptions = {},
): Promise<string> {
  const key = await post(
    `${baseUrl}/api/admin/api-keys`,
    { Authorization: `Bearer ${adminToken}` },
    { name: 'demo model', scopes: ['connections:manage', 'connections:view'] },
  );
  if (key.status !== 201 || typeof key.body.apiKey !== 'string')
    throw new Error(`api key: ${key.status} ${JSON.stringify(key.body)}`);
  const model = opts.model ?? 'demo-model';
  const conn = await post(
    `${baseUrl}/api/public/connections`,
    { 'x-api-key': key.body.apiKey },
    {
      provider: 'API',
      connectionName: 'Demo model',
      model,
      fields: {},
      promptVars: [],
      customVars: [],
      endpointUrl,
      headers: opts.apiKey ? [{ key: 'Authorization', value: `Bearer ${opts.apiKey}` }] : [],
      payload: { model, max_tokens: 200, messages: [{ role: 'user', content: '{{prompt}}' }] },
      outputPath: 'choices[0].message.content',
      status: 'FINALIZED',
      isEnable: true,
    },
  );
  if (conn.status !== 201 || typeof conn.body.connectionId !== 'string')
    throw new Error(`connection: ${conn.status} ${JSON.stringify(conn.body)}`);
  return conn.body.connectionId;
}
