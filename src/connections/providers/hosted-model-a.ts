/** HostedModelA: a chat-completions API; `Authorization: Bearer <API_KEY>`, POST {base}/chat/completions. */
import type { OpenedConnection } from '../connection-record.js';
import { chatCompletionsShape } from './chat-completions-shape.js';
import { trimBase, type ModelCall, type ModelHttpRequest, type ProviderAdapter } from './provider-adapter.js';

export const HOSTED_MODEL_A_BASE_URL = 'https://api.openai.com/v1';

export class HostedModelAAdapter implements ProviderAdapter {
  private readonly baseUrl: string;

  constructor(opts: { baseUrl?: string } = {}) {
    this.baseUrl = trimBase(opts.baseUrl ?? HOSTED_MODEL_A_BASE_URL);
  }

  request(conn: OpenedConnection, call: ModelCall): ModelHttpRequest {
    return {
      url: `${this.baseUrl}/chat/completions`,
      headers: { authorization: `Bearer ${conn.secrets.API_KEY ?? ''}` },
      body: chatCompletionsShape.body(conn.model, call),
    };
  }

  read(json: unknown) {
    return chatCompletionsShape.read(json);
  }
}
