/**
 * `/ivr/hooks/:streamId` (GET and POST): the webhook a VXML browser calls. Parameters come from
 * the query and the body (the body wins), in JSON, urlencoded or multipart. Every answer is a
 * VoiceXML document: faults during an authenticated call answer 200 with the error document (a
 * browser never runs a non-2xx body); refusals answer their status with an error document.
 */
import { z } from 'zod';
import {
  AppError,
  defineRoute,
  incomingTraceId,
  type Config,
  type Logger,
  type Metrics,
  type RouteDef,
} from '../platform/index.js';
import { isStoreUnavailable } from '../store/index.js';
import { renderDocument, type DialectName, type VxmlDocument } from '../vxml/index.js';
import type { CallTurnService } from './call-turn-service.js';
import type { RenderedDocument, TurnOutcome } from './turn-context.js';
import { textPrompt, toVxmlDocument, waitDocument } from './document-mapper.js';
import { faultSpeech, type Spoken } from './fault-speech.js';
import type { IvrPorts } from './ivr-ports.js';
import { readWebhookRequest, type WebhookRequest } from './webhook-input.js';
import {
  defaultIvrSettings,
  readThrough,
  type IvrCaches,
  type IvrConfigService,
  type IvrSettings,
} from '../ivr-settings/index.js';
import { firstFaultAt, storeRetryPause } from './store-retry.js';
import { logTurnTranscript } from './turn-transcript.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface WebhookDeps {
  config: Config;
  ivr: IvrConfigService;
  turns: CallTurnService;
  ports: IvrPorts;
  logger: Logger;
  metrics: Metrics;
  caches: Pick<IvrCaches, 'apps'>;
}

/** The webhook URL a document submits to. */
export function submitUrl(baseUrl: string, streamId: string, token?: string): string {
  const url = new URL(`/ivr/hooks/${encodeURIComponent(streamId)}`, baseUrl);
  if (token) url.searchParams.set('token', token);
  return url.toString();
}

const errorDoc = (
  error: string,
  text = 'Sorry, something went wrong on our side. Please try again later.',
  req?: WebhookRequest,
  spoken: Spoken = {},
): VxmlDocument => ({
  kind: 'error',
  ...spoken,
  ...(req ? { callId: req.callId ?? '', from: req.from ?? '', to: req.to ?? '' } : {}),
  prompt: textPrompt(text),
  error,
});

/**
 * The node a turn's answer came from: the last node the agent ran for it, else the node the call
 * stands at (an answer delivered again, a wait).
 */
function nodeOfTurn(outcome: TurnOutcome): string | undefined {
  if (outcome.kind === 'answer' && outcome.answer.node) return outcome.answer.node;
  const state = outcome.session.state;
  return state?.dialog && state.node ? `${state.dialog}.${state.node}` : undefined;
}

const vxml = (doc: VxmlDocument, dialect: DialectName = 'w3c', status = 200) => ({
  status,
  xml: renderDocument(doc, { dialect }),
});

const SERVICE_DISABLED_TEXT = 'Sorry, this service is not available. Goodbye.';
/** A refused token is the line's configuration, not a fault of ours: said so, for whoever reads or hears it. */
const NOT_CONFIGURED_TEXT =
  'Sorry, this line is not configured correctly, so the assistant cannot take the call. Please tell the company you called.';

/**
 * Errors before a call is under way (bad token, unknown app, bad request) as VXML with their
 * status, in the dialect given (the app's settings are not read for a refused request: w3c).
 */
export function renderWebhookError(err: AppError, dialect: DialectName = 'w3c') {
  // a full memory store refuses a new call with a plain 503 (and Retry-After), not an apology;
  // so does an app whose operator switched its IVR settings off, with a document that says so
  if (err.code === 'service_disabled')
    return vxml(errorDoc('service_disabled', SERVICE_DISABLED_TEXT), dialect, err.status);
  if (err.status === 401) return vxml(errorDoc('unauthorized', NOT_CONFIGURED_TEXT), dialect, err.status);
  const atCapacity = err.code === 'at_capacity';
  const status = err.status >= 500 && !atCapacity ? 200 : err.status;
  const name = atCapacity
    ? 'at_capacity'
    : err.status === 401
      ? 'unauthorized'
      : err.status === 404
        ? 'not_found'
        : err.status === 400
          ? 'bad_request'
          : err.status === 413
            ? 'too_large'
            : err.status === 415
              ? 'unsupported_media_type'
              : err.status === 405
                ? 'method_not_allowed'
                : err.status === 409
                  ? 'conflict'
                  : err.status === 429
                    ? 'rate_limited'
                    : err.status === 503
                      ? 'store_unavailable'
                      : 'internal_error';
  return vxml(errorDoc(name), dialect, status);
}

/**
 * The webhook's body: the parameters our documents submit (about twenty, each read up to a cap:
 * message, interpretation and utterance 4,000 characters, the token 8 KB, an NLSML result 20,000
 * characters) and a few shadow variables a browser adds. Percent-encoded, a character outside ASCII
 * takes up to 12 bytes, so the three caller-text fields alone may reach 144 KB: 256 KB holds them
 * with the token and an NLSML result of mostly ASCII markup. A turn is unauthenticated until its token is checked, so anything larger, or
 * with more than 100 fields, is refused before it is parsed.
 */
export const WEBHOOK_BODY_LIMIT = { size: '256kb', name: 'the webhook parameters', maxKeys: 100 };

export function webhookRoutes(deps: WebhookDeps): RouteDef[] {
  const { ivr, turns, ports, config, logger, metrics, caches } = deps;

  const isStoreFault = (err: unknown): boolean =>
    isStoreUnavailable(err) || (err instanceof AppError && err.code === 'store_unavailable');

  /**
   * While the store is unreachable: after a pause that grows with each retry, the retry document;
   * the error document once the retry budget (counted from the turn's first fault) is spent.
   */
  async function storeFault(req: WebhookRequest, url: string, settings: IvrSettings, appLang?: string) {
    const dialect = settings.dialect as DialectName;
    const now = Date.now();
    const since = firstFaultAt(req.retry, req.retrySince, now);
    const pauseMs = storeRetryPause(req.retry, now - since, config.storeRetryBudgetMs);
    metrics.storeErrors.inc({ operation: 'turn' });
    logger.warn(
      { callId: req.callId, retry: req.retry, faultForMs: now - since, pauseMs },
      'store unavailable during a turn',
    );
    const { spoken, responses } = faultSpeech(req, settings, appLang);
    if (pauseMs === null)
      return { kind: 'error', ...vxml(errorDoc('store_unavailable', responses.error, req, spoken), dialect) };
    await sleep(pauseMs);
    return { kind: 'retry', ...vxml({ ...retryDocument(req, url, since, responses), ...spoken }, dialect) };
  }

  /** A refused token: a line with its reason (never the token) and the count by reason. */
  function tokenRefused(streamId: string, req: WebhookRequest, err: AppError): void {
    const reason = err.reason ?? 'unknown';
    metrics.webhookTokenRefusals.inc({ reason });
    logger.warn({ streamId, callId: req.callId, reason }, 'webhook token refused');
  }

  async function answer(
    streamId: string,
    req: WebhookRequest,
    baseUrl: string,
    startedAt: number,
    traceId: string | undefined,
  ) {
    const url = submitUrl(baseUrl, streamId, req.token);
    let settings: IvrSettings;
    let sandboxCall = false;
    try {
      sandboxCall = (await ivr.verifyToken(streamId, req.token)).claims.sandbox === true;
      settings = await ivr.getSettings(streamId);
      // a tester's call runs with the drafts (settings and agent) when the published settings say so
      if (sandboxCall && settings.sandboxAnswersFrom === 'draft')
        settings = { ...(await ivr.draftSettings(streamId)), sandboxAnswersFrom: 'draft' };
    } catch (err) {
      // a call under way keeps retrying through a store outage; anything else is refused as usual
      if (req.callId && req.token && isStoreFault(err)) return storeFault(req, url, defaultIvrSettings());
      if (err instanceof AppError && err.status === 401) tokenRefused(streamId, req, err);
      throw err;
    }
    // switched off by the operator: no call starts or goes on (a hang-up report still ends one)
    if (!settings.enabled && !(req.event === 'hangup' && req.callId))
      throw AppError.serviceDisabled(
        'The IVR service of this app is switched off (IVR settings enabled: false)',
      );
    if (!req.callId) {
      if (req.turn === undefined && req.event === undefined) {
        return {
          kind: 'bootstrap',
          ...vxml(
            { kind: 'bootstrap', submit: { url }, apology: textPrompt(settings.standardResponses.error) },
            settings.dialect as DialectName,
          ),
        };
      }
      throw AppError.badRequest('callId is required', 'callId');
    }
    const dialect = settings.dialect as DialectName;
    let appLang: string | undefined;
    try {
      const [agent, app] = await Promise.all([
        ports.agents.get(
          streamId,
          sandboxCall && settings.sandboxAnswersFrom === 'draft' ? 'draft' : 'published',
        ),
        readThrough(caches.apps, streamId, () => ports.apps.findApp(streamId)),
      ]);
      if (!app) throw AppError.notFound('App not found');
      if (!agent) throw AppError.notFound('No agent is set for this app');
      const lang = app.language.includes('-') ? app.language : `${app.language}-US`;
      appLang = lang;
      const render = (outcome: TurnOutcome): RenderedDocument => {
        const base = {
          settings,
          agent,
          callId: req.callId!,
          from: outcome.session.from ?? req.from,
          to: outcome.session.to ?? req.to,
          submitUrl: url,
          lang,
        };
        if (outcome.kind === 'wait')
          return { kind: 'wait', xml: vxml(waitDocument({ ...base, turn: outcome.turn }), dialect).xml };
        const doc = toVxmlDocument(outcome.answer, { ...base, turn: outcome.issuedTurn });
        return { kind: doc.kind, xml: vxml(doc, dialect).xml };
      };
      const outcome = await turns.handle({
        streamId,
        req,
        settings,
        agent,
        lang,
        deadlineAt: startedAt + config.turnDeadlineMs,
        render,
        ...(traceId ? { traceId } : {}),
      });
      if (settings.log) logTurnTranscript(logger, streamId, req, outcome);
      const rendered = outcome.rendered ?? render(outcome);
      return { kind: rendered.kind, node: nodeOfTurn(outcome), status: 200, xml: rendered.xml };
    } catch (err) {
      if (err instanceof AppError && (err.status < 500 || err.code === 'at_capacity')) throw err;
      if (isStoreFault(err)) return storeFault(req, url, settings, appLang);
      logger.error({ err, callId: req.callId }, 'turn failed');
      const { spoken, responses } = faultSpeech(req, settings, appLang);
      return { kind: 'error', ...vxml(errorDoc('internal_error', responses.error, req, spoken), dialect) };
    }
  }

  return [
    defineRoute({
      method: ['get', 'post'],
      path: '/ivr/hooks/:streamId',
      summary: 'IVR webhook: one caller turn in, one VoiceXML document out',
      tags: ['ivr'],
      auth: { kind: 'none' },
      params: z.object({ streamId: z.string().min(1).max(100) }),
      body: z.record(z.string(), z.unknown()),
      bodyTypes: ['json', 'urlencoded', 'multipart'],
      bodyLimit: WEBHOOK_BODY_LIMIT,
      mergeQueryIntoBody: true,
      responses: { 200: { description: 'a VoiceXML 2.1 document', contentType: 'application/voicexml+xml' } },
      renderError: (err) => renderWebhookError(err),
      handler: async ({ params, body, baseUrl, headers }) => {
        const startedAt = Date.now();
        const end = metrics.turnLatency.startTimer();
        const req = readWebhookRequest(body);
        // the caller's history message takes the trace id of a valid incoming traceparent, telemetry on or off
        const out = await answer(
          params.streamId,
          req,
          baseUrl,
          startedAt,
          incomingTraceId(headers.traceparent),
        );
        end({ kind: out.kind });
        metrics.turns.inc({ kind: out.kind });
        metrics.appTurns.inc({ app: metrics.appLabel(params.streamId), outcome: out.kind });
        // one line per turn: what an operator greps for first (never the token or the caller's words);
        // turn 0 is the call's start, node null where no node ran (a bootstrap, a wait, a fault)
        logger.info(
          {
            callId: req.callId,
            streamId: params.streamId,
            turn: req.turn ?? 0,
            event: req.event,
            node: ('node' in out ? out.node : undefined) ?? null,
            outcome: out.kind,
            latencyMs: Date.now() - startedAt,
          },
          'turn answered',
        );
        return { status: out.status, xml: out.xml };
      },
    }),
  ];
}

/**
 * While the store is unreachable: the same request again with retry+1 and the time of the turn's
 * first fault. The hold prompt plays with the first retry document only: later ones follow at once
 * (their pause was spent before they were answered).
 */
function retryDocument(
  req: WebhookRequest,
  url: string,
  since: number,
  responses: IvrSettings['standardResponses'],
): VxmlDocument {
  const resubmit: Record<string, string> = { retry: String(req.retry + 1), retrySince: String(since) };
  const copy: Array<[string, string | undefined]> = [
    ['message', req.message],
    ['event', req.event],
    ['from', req.from],
    ['to', req.to],
    ['interpretation', req.interpretation],
    ['confidence', req.confidence],
    ['inputmode', req.inputmode],
    ['utterance', req.utterance],
    ['transferResult', req.transferResult],
    ['recording', req.recording],
  ];
  for (const [k, v] of copy) if (v !== undefined) resubmit[k] = v;
  return {
    kind: 'wait',
    vars: { callId: req.callId ?? '', from: req.from ?? '', turn: String(req.turn ?? 0) },
    submit: { url },
    prompt: req.retry === 0 ? textPrompt(responses.hold) : [],
    resubmit,
    apology: textPrompt(responses.error),
  };
}
