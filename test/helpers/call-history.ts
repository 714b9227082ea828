/**
 * A call's conversation history as the public history API answers it (getMessages, v1: every task
 * kind), read with an API app of the chat-history scope; for the IVR suites that check what a call
 * left behind.
 */
import { signHs256 } from '../../src/platform/index.js';
import type { RunningGateway } from './test-gateway.js';

export interface HistoryMessage {
  type: 'incoming' | 'outgoing';
  text: string;
  createdOn: string;
  tags: Record<string, string>;
  _id: string;
  /** The message's language (the call's, issue 43). */
  lang: string;
}

/** Reads call histories of one app; the window spans yesterday to tomorrow (tests may move the clock). */
export async function callHistoryReader(
  gw: RunningGateway,
  streamId: string,
): Promise<(callId: string) => Promise<HistoryMessage[]>> {
  const client = await gw.admin('POST', `/api/admin/apps/${streamId}/api-apps`, {
    name: 'history reader',
    scopes: ['chat-history'],
  });
  const auth = signHs256({ appId: client.body.clientId }, client.body.clientSecret);
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return async (callId) => {
    const q = new URLSearchParams({
      userId: callId,
      channelType: 'ivr',
      limit: '100',
      forward: 'true',
      dateFrom: day(-1),
      dateTo: day(1),
    });
    const res = await fetch(`${gw.url}/api/public/bot/${streamId}/getMessages?${q}`, { headers: { auth } });
    if (res.status !== 200) throw new Error(`getMessages: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as {
      messages: Array<{
        type: 'incoming' | 'outgoing';
        components: Array<{ data: { text: string } }>;
        createdOn: string;
        tags: Record<string, string>;
        _id: string;
        lang: string;
      }>;
    };
    return body.messages.map((m) => ({
      type: m.type,
      text: m.components[0]!.data.text,
      createdOn: m.createdOn,
      tags: m.tags,
      _id: m._id,
      lang: m.lang,
    }));
  };
}
