/** HostedModelC: a messages API; `x-api-key: <API_KEY>` and a version header, POST {base}/messages. */
import type { OpenedConnection } from '../connection-record.js';
import { messagesShape } from './messages-shape.js';
import { trimBase, type ModelCall, type ModelHttpRequest, type ProviderAdapter } from './provider-adapter.js';

export const HOSTED_MODEL_C_BASE_URL = 'https://api.anthropic.com/v1';
export const HOSTED_MODEL_C_API_VERSION = '2023-06-01';

export class HostedModelCAdapter implements ProviderAdapter {
  private readonly baseUrl: string;

  constructor(opts: { baseUrl?: string } = {}) {
    this.baseUrl = trimBase(opts.baseUrl ?? HOSTED_MODEL_C_BASE_URL);
  }

  request(conn: OpenedConnection, call: ModelCall): ModelHttpRequest {
    return {
      url: `${this.baseUrl}/messages`,
      headers: { 'x-api-key': conn.secrets.API_KEY ?? '', 'anthropic-version': HOSTED_MODEL_C_API_VERSION },
      body: messagesShape.body(conn.model, call),
    };
  }

  read(json: unknown) {
    return messagesShape.read(json);
  }
}
