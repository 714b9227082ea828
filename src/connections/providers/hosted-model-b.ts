/**
 * HostedModelB: chat completions behind a per-resource deployment URL,
 * POST {base}/openai/deployments/{deployment_id}/chat/completions?api-version={api_version}
 * with `api-key: <API_KEY>`. The base may hold `{resource}`, replaced by `your_resource_name`
 * (validated as a DNS label at create time, so it cannot change the host beyond its own label).
 */
import type { OpenedConnection } from '../connection-record.js';
import { chatCompletionsShape } from './chat-completions-shape.js';
import { trimBase, type ModelCall, type ModelHttpRequest, type ProviderAdapter } from './provider-adapter.js';

export const HOSTED_MODEL_B_BASE_URL = 'https://{resource}.openai.azure.com';

export class HostedModelBAdapter implements ProviderAdapter {
  private readonly baseUrl: string;

  constructor(opts: { baseUrl?: string } = {}) {
    this.baseUrl = trimBase(opts.baseUrl ?? HOSTED_MODEL_B_BASE_URL);
  }

  request(conn: OpenedConnection, call: ModelCall): ModelHttpRequest {
    const {
      your_resource_name: resource = '',
      deployment_id: deployment = '',
      api_version: version = '',
    } = conn.fields;
    const base = this.baseUrl.replace('{resource}', encodeURIComponent(resource));
    return {
      url: `${base}/openai/deployments/${encodeURIComponent(deployment)}/chat/completions?api-version=${encodeURIComponent(version)}`,
      headers: { 'api-key': conn.secrets.API_KEY ?? '' },
      body: chatCompletionsShape.body(conn.model, call),
    };
  }

  read(json: unknown) {
    return chatCompletionsShape.read(json);
  }
}
