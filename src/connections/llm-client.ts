/**
 * The agent's LLM port: loads the connection, refuses unknown or INACTIVE ones, and sends the
 * prompt through the provider's adapter (hosted) or the connection's own template (custom API),
 * under the call's deadline. Failures are LlmErrors; the log line names the connection, the app,
 * the provider and the error code, never a secret, the endpoint URL or the model text.
 */
import { SpanKind } from '@opentelemetry/api';
import { annotate, inSpan, type Logger } from '../platform/index.js';
import type { LlmPort } from '../agent/index.js';
import { isStoreUnavailable } from '../store/index.js';
import type { HostedProvider } from './connection-record.js';
import type { ConnectionsService } from './connections-service.js';
import { callCustomApi } from './custom-api-call.js';
import type { EndpointGuard } from './endpoint-guard.js';
import { fetchTransport } from './fetch-transport.js';
import { LlmError } from './llm-error.js';
import { postModelJson } from './model-http.js';
import type { ModelTransport } from './model-transport.js';
import { pinnedTransport } from './pinned-transport.js';
import { withDeadline } from './with-deadline.js';
import { HostedModelAAdapter } from './providers/hosted-model-a.js';
import { HostedModelBAdapter } from './providers/hosted-model-b.js';
import { HostedModelCAdapter } from './providers/hosted-model-c.js';
import type { ProviderAdapter } from './providers/provider-adapter.js';

/** Base URLs of the hosted providers (HostedModelB's may contain `{resource}`). */
export type ProviderBaseUrls = Partial<Record<HostedProvider, string>>;

export interface LlmClientDeps {
  service: ConnectionsService;
  guard: EndpointGuard;
  logger: Logger;
  /** fetch used for hosted providers (default: global fetch). */
  fetch?: typeof fetch;
  providerBaseUrls?: ProviderBaseUrls;
  /** Transport for custom endpoints (default: node:http pinned to the checked address). */
  customTransport?: ModelTransport;
  /** Called after each call with its outcome ('ok' or an LlmError code). */
  observe?: (o: { provider: string; outcome: string; seconds: number }) => void;
}

const CLIENT_SPAN = { kind: SpanKind.CLIENT };

export function createLlmClient(deps: LlmClientDeps): LlmPort {
  const adapters: Record<HostedProvider, ProviderAdapter> = {
    HostedModelA: new HostedModelAAdapter({
      ...(deps.providerBaseUrls?.HostedModelA ? { baseUrl: deps.providerBaseUrls.HostedModelA } : {}),
    }),
    HostedModelB: new HostedModelBAdapter({
      ...(deps.providerBaseUrls?.HostedModelB ? { baseUrl: deps.providerBaseUrls.HostedModelB } : {}),
    }),
    HostedModelC: new HostedModelCAdapter({
      ...(deps.providerBaseUrls?.HostedModelC ? { baseUrl: deps.providerBaseUrls.HostedModelC } : {}),
    }),
  };
  const hostedTransport = fetchTransport(deps.fetch ?? globalThis.fetch);
  const customTransport = deps.customTransport ?? pinnedTransport;

  return {
    // one `model.call` span per call (telemetry on): connection, provider, tokens, error code
    complete: (req) =>
      inSpan('model.call', CLIENT_SPAN, async (span) => {
        const started = process.hrtime.bigint();
        let provider = 'unknown';
        try {
          const answer = await withDeadline(req.timeoutMs, req.signal, async (signal) => {
            const conn = await deps.service.open(req.connectionId);
            if (!conn) throw new LlmError('not_found', 'No model connection with this id');
            provider = conn.provider;
            annotate(span, () => ({ 'model.connection_id': req.connectionId, 'model.provider': provider }));
            if (conn.status !== 'ACTIVE')
              throw new LlmError('inactive', 'The model connection is not active');
            const call = { prompt: req.prompt, ...(req.system !== undefined ? { system: req.system } : {}) };
            if (conn.provider === 'API')
              return callCustomApi(conn, call, { guard: deps.guard, transport: customTransport, signal });
            const adapter = adapters[conn.provider];
            const json = await postModelJson(adapter.request(conn, call), {
              transport: hostedTransport,
              signal,
            });
            return adapter.read(json);
          });
          deps.observe?.({
            provider,
            outcome: 'ok',
            seconds: Number(process.hrtime.bigint() - started) / 1e9,
          });
          annotate(span, () => ({
            ...(answer.inputTokens !== undefined ? { 'gen_ai.usage.input_tokens': answer.inputTokens } : {}),
            ...(answer.outputTokens !== undefined
              ? { 'gen_ai.usage.output_tokens': answer.outputTokens }
              : {}),
          }));
          return answer;
        } catch (err) {
          // the store failed (reading the connection), not the model: the turn handles it as a store fault
          if (isStoreUnavailable(err)) throw err;
          const e = err instanceof LlmError ? err : new LlmError('network', 'The model call failed');
          const cause =
            err instanceof LlmError ? {} : { cause: err instanceof Error ? err.name : typeof err };
          deps.observe?.({
            provider,
            outcome: e.code,
            seconds: Number(process.hrtime.bigint() - started) / 1e9,
          });
          annotate(span, () => ({ 'model.connection_id': req.connectionId, 'model.error': e.code }));
          deps.logger.warn(
            {
              connectionId: req.connectionId,
              streamId: req.streamId,
              provider,
              code: e.code,
              ...cause,
              ...(e.status !== undefined ? { httpStatus: e.status } : {}),
            },
            'model call failed',
          );
          throw e;
        }
      }),
  };
}
