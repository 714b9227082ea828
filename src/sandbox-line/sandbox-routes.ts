/** Sandbox routes: provisioning (operator) and the number a VXML browser's routing fetches. */
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../platform/index.js';
import { renderDocument, type VxmlDocument } from '../vxml/index.js';
import type { SandboxService, SandboxStep } from './sandbox-service.js';
import { WEBHOOK_BODY_LIMIT, param, renderWebhookError, submitUrl, textPrompt } from '../ivr/index.js';

const streamIdParams = z.object({
  streamId: z.string().regex(/^st-[0-9a-f-]{36}$/, 'must be an app id st-<uuid>'),
});
const sandboxBody = z.strictObject({
  enabled: z.boolean(),
  maxConcurrentCalls: z.number().int().min(1).max(100).optional(),
});
const sandboxAnswer = z.object({
  enabled: z.boolean(),
  phoneNumber: z.string().meta({ description: "the sandbox number ('' while disabled)" }),
  pin: z.string().optional().meta({ description: 'only in the answer that created the sandbox' }),
  secret: z.string().optional().meta({ description: 'only in the answer that created the sandbox' }),
  maxConcurrentCalls: z.number().int(),
});
const rotatedSandbox = sandboxAnswer.required({ pin: true, secret: true });
const provisionedSandbox = sandboxAnswer.extend({
  settingsChanged: z
    .array(
      z.object({
        name: z.string().meta({ description: 'the setting, dotted (transcription.enabled)' }),
        before: z.unknown(),
        after: z.unknown(),
      }),
    )
    .meta({
      description:
        'every IVR setting this request changed (the sandbox pre-fills what it needs when the settings were never saved or are not enabled); null stands for not set',
    }),
  channelSwitchedOn: z.boolean().meta({
    description: 'true when this request switched the IVR channel on (creating it when there was none)',
  }),
});

function entryUrl(baseUrl: string, phoneNumber: string, q: Record<string, string>): string {
  const url = new URL(`/ivr/sandbox/${encodeURIComponent(phoneNumber)}`, baseUrl);
  for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
  return url.toString();
}

function documentFor(step: SandboxStep, phoneNumber: string, baseUrl: string): VxmlDocument {
  switch (step.kind) {
    case 'announce':
      return { kind: 'announce-disconnect', prompt: textPrompt(step.text) };
    case 'login':
      return {
        kind: 'sandbox-login',
        submit: {
          url: entryUrl(baseUrl, phoneNumber, { step: 'login', callId: step.callId, from: step.from }),
        },
        attemptId: step.attempt,
        ...(step.retry ? { errorPrompt: textPrompt('That PIN or secret did not match.') } : {}),
        pinPrompt: textPrompt('Welcome to the test line. Please key in your PIN, then press pound.'),
        secretPrompt: textPrompt('Now key in your secret, then press pound.'),
        pinLength: { min: 6, max: 6 },
        secretLength: { min: 8, max: 8 },
        goodbyePrompt: textPrompt('Goodbye.'),
        apology: textPrompt('Sorry, the test line is not available right now. Goodbye.'),
      };
    case 'connect':
      return {
        kind: 'sandbox-connect',
        webhookUrl: submitUrl(baseUrl, step.streamId, step.token),
        callId: step.callId,
        from: step.from,
        to: step.streamId,
        goodbyePrompt: textPrompt('Thank you for testing. Goodbye.'),
        errorPrompt: textPrompt('Sorry, the assistant is not available right now. Goodbye.'),
      };
  }
}

export function sandboxRoutes(
  sandbox: SandboxService,
  requireApp: (streamId: string) => Promise<unknown>,
): RouteDef[] {
  return [
    defineRoute({
      method: 'put',
      path: '/api/admin/apps/:streamId/ivr-sandbox',
      summary: 'Enable or disable the test sandbox',
      tags: ['operator', 'ivr'],
      auth: { kind: 'admin' },
      params: streamIdParams,
      body: sandboxBody,
      responses: {
        200: {
          description:
            '{enabled, phoneNumber, pin?, secret?, maxConcurrentCalls, settingsChanged, channelSwitchedOn}: pin and secret only when this request created the sandbox',
          schema: provisionedSandbox,
        },
        422: { description: 'not available on-premise' },
      },
      handler: async ({ params, body, baseUrl }) => {
        await requireApp(params.streamId);
        return { json: await sandbox.provision(params.streamId, body, baseUrl) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/admin/apps/:streamId/ivr-sandbox/rotate-secret',
      summary: 'Replace the sandbox PIN and secret and show the new ones',
      tags: ['operator', 'ivr'],
      auth: { kind: 'admin' },
      params: streamIdParams,
      responses: {
        200: {
          description: 'the sandbox with its new pin and secret; the old ones no longer log in',
          schema: rotatedSandbox,
        },
        404: { description: 'unknown app, or no sandbox yet' },
        422: { description: 'not available on-premise' },
      },
      handler: async ({ params }) => {
        await requireApp(params.streamId);
        return { json: await sandbox.rotateSecret(params.streamId) };
      },
    }),
    defineRoute({
      method: ['get', 'post'],
      path: '/ivr/sandbox/:phoneNumber',
      summary: 'Sandbox number: PIN and secret, then the app as a subdialog',
      tags: ['ivr'],
      auth: { kind: 'none' },
      params: z.object({ phoneNumber: z.string().regex(/^\+?\d{4,16}$/, 'an E.164 number') }),
      body: z.record(z.string(), z.unknown()),
      bodyTypes: ['json', 'urlencoded', 'multipart'],
      mergeQueryIntoBody: true,
      // the webhook's parameters and the login's few: the same small limits, before any parsing
      bodyLimit: WEBHOOK_BODY_LIMIT,
      responses: { 200: { description: 'a VoiceXML 2.1 document', contentType: 'application/voicexml+xml' } },
      renderError: (err) => renderWebhookError(err),
      handler: async ({ params, body, baseUrl, ip }) => {
        const p = body;
        const phoneNumber = params.phoneNumber.startsWith('+')
          ? params.phoneNumber
          : `+${params.phoneNumber}`;
        // the client address: Express's, so behind a trusted proxy (TRUST_PROXY) the one it saw
        const caller = { address: ip, from: param(p, 'from', 64) ?? '' };
        const callId = param(p, 'callId', 200);
        const step =
          param(p, 'step', 10) === 'login' && callId
            ? await sandbox.login(phoneNumber, caller, {
                callId,
                attempt: param(p, 'attempt', 512) ?? '',
                pin: param(p, 'pin', 32) ?? '',
                secret: param(p, 'secret', 32) ?? '',
              })
            : await sandbox.enter(phoneNumber, caller, callId);
        return { xml: renderDocument(documentFor(step, phoneNumber, baseUrl)) };
      },
    }),
  ];
}
