/** Helpers of the versions tests: an app whose calls and sandbox calls can be heard, as a VXML browser would reach them. */
import { expect } from 'vitest';
import { signHs256 } from '../../src/platform/index.js';
import type { RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall, spokenOf } from '../helpers/ivr-call.js';

const attemptOf = (xml: string) => /<var name="attempt" expr="'([^']+)'"/.exec(xml)?.[1] ?? '';
const subdialogSrcOf = (xml: string) =>
  /<subdialog[^>]*src="([^"]+)"/.exec(xml)?.[1]?.replace(/&amp;/g, '&') ?? '';
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A small agent whose welcome says `text` (the rest stays the same from one version to the next). */
export const agentSaying = (text: string) => ({
  language: 'en',
  welcomeDialog: 'welcome',
  fallbackDialog: 'fallback',
  intents: [
    {
      name: 'OpeningHours',
      dialog: 'hours',
      utterances: ['when are you open', 'what are your opening hours', 'are you open on sunday'],
    },
  ],
  dialogs: {
    welcome: { start: 'hello', nodes: { hello: { type: 'message', text } } },
    hours: {
      start: 'say',
      nodes: { say: { type: 'end', text: 'We are open every day from noon to ten. Goodbye.' } },
    },
    fallback: {
      start: 'sorry',
      nodes: { sorry: { type: 'message', text: 'Sorry, I can only tell you our opening hours.' } },
    },
  },
});

/**
 * Switches the app's channel and sandbox on; the webhook URL a platform calls (a minted token) and
 * the one a tester's call reaches after the sandbox login (the connect document's subdialog).
 */
export async function callLines(
  gw: RunningGateway,
  streamId: string,
): Promise<{ callUrl: string; sandboxUrl: string }> {
  const ch = await gw.admin('PUT', `/api/admin/apps/${streamId}/channels/ivr`, { enabled: true });
  const token = signHs256(
    { appId: ch.body.clientId, sub: '+15550001111', isAnonymous: true },
    ch.body.clientSecret,
    3600,
  );
  const line = (
    await gw.admin('PUT', `/api/admin/apps/${streamId}/ivr-sandbox`, { enabled: true, maxConcurrentCalls: 5 })
  ).body;
  const entry = `${gw.url}/ivr/sandbox/${encodeURIComponent(line.phoneNumber)}`;
  const first = await gw.submit(entry, { from: '+15550002222', callId: 'sb-versions' });
  const connected = await gw.submit(`${entry}?step=login&callId=sb-versions&from=%2B15550002222`, {
    attempt: attemptOf(first.xml),
    pin: line.pin,
    secret: line.secret,
  });
  const sandboxUrl = subdialogSrcOf(connected.xml);
  expect(sandboxUrl).toContain('/ivr/hooks/');
  return { callUrl: `${ch.body.webhookUrl}?token=${encodeURIComponent(token)}`, sandboxUrl };
}

/** What a new call to the URL hears first. */
export async function hear(gw: RunningGateway, url: string): Promise<string> {
  return spokenOf(await new IvrCall(gw, url).start());
}

/** What a new call hears once it says `text` (another instance, or this one's cache, may take a moment). */
export async function eventuallyHears(gw: RunningGateway, url: string, text: string): Promise<string> {
  let heard = '';
  for (let i = 0; i < 100 && !heard.includes(text); i++) {
    heard = await hear(gw, url);
    if (!heard.includes(text)) await sleep(20);
  }
  return heard;
}
