/**
 * A model call through a custom `API` connection. The endpoint is resolved and checked first
 * (private addresses refused unless allowed) and the request connects to the checked address.
 *  - default variant: the connection's payload template, filled (payload-template.ts), answer read
 *    with its outputPath / inputTokensPath / outputTokensPath;
 *  - existing-provider variant: the wire shape of `mapProvider` (vendorAModel: chat completions,
 *    vendorCModel: messages, vendorDModel: generate-content) sent to endpointUrl as is; needs the
 *    `textToText` IO mapping.
 * Headers are the connection's own (secrets opened). When none of them carries a credential and
 * fields.API_KEY (or LLM_API_KEY) is set, it is sent as `Authorization: Bearer <key>`.
 */
import type { MapProvider, OpenedConnection } from './connection-record.js';
import type { EndpointGuard } from './endpoint-guard.js';
import { LlmError } from './llm-error.js';
import { readModelAnswer, type ModelAnswer } from './model-answer.js';
import { postModelJson } from './model-http.js';
import type { ModelTransport } from './model-transport.js';
import { fillPayloadTemplate } from './payload-template.js';
import { chatCompletionsShape } from './providers/chat-completions-shape.js';
import { generateContentShape } from './providers/generate-content-shape.js';
import { messagesShape } from './providers/messages-shape.js';
import type { ModelCall, WireShape } from './providers/provider-adapter.js';

const SHAPES: Record<MapProvider, WireShape> = {
  vendorAModel: chatCompletionsShape,
  vendorCModel: messagesShape,
  vendorDModel: generateContentShape,
};

const CREDENTIAL_HEADER = /auth|api[-_]?key|token/i;

function requestHeaders(conn: OpenedConnection): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of conn.custom?.headers ?? []) out[h.key.toLowerCase()] = h.value;
  const key = conn.secrets.API_KEY ?? conn.secrets.LLM_API_KEY;
  const hasCredential = Object.keys(out).some((k) => CREDENTIAL_HEADER.test(k));
  if (key && !hasCredential) out.authorization = `Bearer ${key}`;
  return out;
}

export async function callCustomApi(
  conn: OpenedConnection,
  call: ModelCall,
  opts: { guard: EndpointGuard; transport: ModelTransport; signal: AbortSignal },
): Promise<ModelAnswer> {
  const c = conn.custom;
  if (!c) throw new LlmError('unsupported', 'The connection has no endpoint configuration');
  let shape: WireShape | undefined;
  if (c.variant === 'existingProvider') {
    if (!c.IOMappings?.includes('textToText'))
      throw new LlmError('unsupported', 'The connection has no textToText mapping');
    shape = SHAPES[c.mapProvider ?? 'vendorAModel'];
  }
  const pin = await opts.guard.resolve(c.endpointUrl);
  const headers = requestHeaders(conn);
  if (shape) {
    const json = await postModelJson(
      { url: c.endpointUrl, headers, body: shape.body(conn.model, call) },
      { transport: opts.transport, signal: opts.signal, pin },
    );
    return shape.read(json);
  }
  const body = fillPayloadTemplate(c.payload ?? {}, c.promptVars ?? [], call);
  const json = await postModelJson(
    { url: c.endpointUrl, headers, body },
    { transport: opts.transport, signal: opts.signal, pin },
  );
  return readModelAnswer(json, {
    text: c.outputPath ?? 'choices[0].message.content',
    ...(c.inputTokensPath ? { inputTokens: c.inputTokensPath } : {}),
    ...(c.outputTokensPath ? { outputTokens: c.outputTokensPath } : {}),
  });
}
