/**
 * One store, one app (with a logo) and an API app with the chat-history scope, the history routes
 * on a real Express app (buildTestApp), and a realistic IVR dataset recorded through the recorder.
 * The clock is fixed at NOW so the default 7-day window is stable.
 */
import { LRUCache } from 'lru-cache';
import request from 'supertest';
import { signHs256 } from '../../src/platform/index.js';
import { createHistoryComponent, type HistoryComponent, type NewMessage } from '../../src/history/index.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import type { StoreFactory } from '../helpers/test-stores.js';
import { ivrCall, type IvrTurn } from './ivr-call.js';

export const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
export const H = 3_600_000;
export const D = 24 * H;
export const ICON = 'https://cdn.example.com/luigi.png';

export const ALICE = { userId: 'u-alice', from: '+15550100' };
export const BOB = { userId: 'u-bob', from: '+15550200' };
export const CAROL = { userId: 'u-carol', from: '+15550300' };

/** carol's 8 calls: session k has (k % 4) + 1 turns of 2 messages, 15 h apart from NOW - 6 days. */
export const carolCalls = (botId: string) =>
  Array.from({ length: 8 }, (_, k) =>
    ivrCall({
      botId,
      ...CAROL,
      callId: `call-c${k}`,
      start: NOW - 6 * D + k * 15 * H,
      turns: Array.from({ length: (k % 4) + 1 }, (_, i): IvrTurn => ({
        caller: `carol ${k}.${i}`,
        bot: `answer ${k}.${i}`,
        ...(k % 2 === 0 ? { tags: { intent: 'Paging' } } : {}),
      })),
    }),
  );

export function dataset(botId: string): { messages: NewMessage[]; calls: Record<string, NewMessage[]> } {
  const calls: Record<string, NewMessage[]> = {
    a0: ivrCall({
      botId,
      ...ALICE,
      callId: 'call-a0',
      start: NOW - 10 * D,
      turns: [{ caller: 'hello from long ago', bot: 'Hi' }],
    }),
    a1: ivrCall({
      botId,
      ...ALICE,
      callId: 'call-a1',
      start: NOW - 5 * D,
      turns: [
        { bot: "Welcome to Luigi's. How can I help?" },
        { caller: 'book a table', bot: 'For how many people?', tags: { intent: 'BookTable' } },
        { caller: 'four', bot: 'A table for 4 is booked.', tags: { intent: 'BookTable', entity: 'size' } },
      ],
    }),
    a2: ivrCall({
      botId,
      ...ALICE,
      callId: 'call-a2',
      start: NOW - 3 * D,
      turns: [
        { bot: 'Welcome back.' },
        { caller: 'check my order', bot: 'Please enter your PIN.' },
        { caller: '1234', bot: 'Thank you.', secureForm: true },
        { bot: 'Your table is ready.', taskKind: 'Alert' },
        { bot: 'Transferring you to an agent.', taskKind: 'Action' },
      ],
    }),
    a3: ivrCall({
      botId,
      ...ALICE,
      callId: 'call-a3',
      start: NOW - 1 * D,
      turns: [
        { caller: 'cancel my booking', bot: 'Cancelled.', tags: { intent: 'Cancel' } },
        { caller: 'bye', bot: 'Goodbye.' },
      ],
    }),
    aRtm: ivrCall({
      botId,
      ...ALICE,
      callId: 'chat-a',
      channel: 'rtm',
      start: NOW - 2 * D,
      turns: [{ caller: 'typed hello', bot: 'typed answer' }],
    }),
    b1: ivrCall({
      botId,
      ...BOB,
      callId: 'call-b1',
      start: NOW - 4 * D,
      turns: [{ caller: 'opening hours', bot: 'We open at noon.', tags: { intent: 'Hours' } }],
    }),
    b2: ivrCall({
      botId,
      ...BOB,
      callId: 'call-b2',
      start: NOW - 2 * D + H,
      turns: [{ caller: 'book a table', bot: 'For how many people?', tags: { intent: 'BookTable' } }],
    }),
  };
  carolCalls(botId).forEach((c, k) => (calls[`c${k}`] = c));
  return { messages: Object.values(calls).flat(), calls };
}

export interface HistoryHarness {
  t: TestApp;
  comp: HistoryComponent;
  botId: string;
  token: (claims?: Record<string, unknown>) => string;
  get(version: 'v1' | 'v2', query: Record<string, unknown>, token?: string): request.Test;
  post(version: 'v1' | 'v2', body: unknown, token?: string): request.Test;
  close(): Promise<void>;
}

export async function historyHarness(
  factory: StoreFactory,
  opts: { rateLimits?: { perMinute: number; perHour: number } } = {},
): Promise<HistoryHarness> {
  const store = await factory.make();
  let comp: HistoryComponent | undefined;
  const t = buildTestApp({
    store,
    routes: (deps) => {
      comp = createHistoryComponent({
        sessionMetas: new LRUCache({ max: 1_000 }),
        store: deps.store,
        apps: deps.apps,
        metrics: deps.metrics,
        rateLimiters: deps.rateLimiters,
        now: () => NOW,
        rateLimits: opts.rateLimits ?? { perMinute: 100_000, perHour: 100_000 },
      });
      return comp.routes;
    },
  });
  const app = await t.apps.createApp({ name: "Luigi's IVR", language: 'en', icon: ICON });
  const client = await t.apps.createApiApp(app.streamId, {
    name: 'history reader',
    scopes: ['chat-history'],
  });
  const token = (claims: Record<string, unknown> = {}) =>
    signHs256({ appId: client.clientId, sub: 'u-tester', ...claims }, client.clientSecret);
  const path = (v: 'v1' | 'v2') =>
    `/api/public/bot/${app.streamId}/${v === 'v1' ? 'getMessages' : 'getMessagesV2'}`;
  return {
    t,
    comp: comp!,
    botId: app.streamId,
    token,
    get: (v, query, tok) =>
      request(t.app)
        .get(path(v))
        .query(query)
        .set('auth', tok ?? token()),
    post: (v, body, tok) =>
      request(t.app)
        .post(path(v))
        .set('auth', tok ?? token())
        .send(body as object),
    close: () => store.close(),
  };
}

/** Ids of an answer's messages. */
export const idsOf = (res: { body: { messages: Array<{ _id: string }> } }): string[] =>
  res.body.messages.map((m) => m._id);
/** Ids of recorded messages, newest first (the default order). */
export const newestFirst = (msgs: NewMessage[]): string[] =>
  [...msgs]
    .sort((a, b) => Number(b.createdOn) - Number(a.createdOn) || (a.id < b.id ? 1 : -1))
    .map((m) => m.id);
