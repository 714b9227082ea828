/**
 * The booking call the reliability suites run (demo agent: start, "book a table", "4",
 * "march third", "yes", end) and the checks of what it leaves behind: the history, message by
 * message with the deterministic ids, and the call's session in the store.
 */
import { expect } from 'vitest';
import { messageId } from '../../src/ivr/index.js';
import type { CallSessionRepository } from '../../src/ivr/index.js';
import { storeKeys, type Store } from '../../src/store/index.js';
import { callHistory, type ProvisionedApp } from './gateway-processes.js';
import type { CallTrace } from './scripted-browser.js';

export const BOOKING = ['book a table', '4', 'march third', 'yes'];

export interface ExpectedLine {
  turn: number;
  type: 'incoming' | 'outgoing';
  text: string | RegExp;
}

export const BOOKING_HISTORY: ExpectedLine[] = [
  { turn: 0, type: 'outgoing', text: /^Welcome to Luigi's/ },
  { turn: 1, type: 'incoming', text: 'book a table' },
  { turn: 1, type: 'outgoing', text: 'For how many people?' },
  { turn: 2, type: 'incoming', text: '4' },
  { turn: 2, type: 'outgoing', text: 'For which day?' },
  { turn: 3, type: 'incoming', text: 'march third' },
  { turn: 3, type: 'outgoing', text: /^A table for 4 on .*03-03.*\. Shall I book it\?$/ },
  { turn: 4, type: 'incoming', text: 'yes' },
  { turn: 4, type: 'outgoing', text: /^Your table for 4 is booked\./ },
];

/** The call ended as booked, after asks for turns 1..4 (a turn asked twice would show here). */
export function expectBooked(t: CallTrace): void {
  expect(t.outcome, `${t.callId}: ${JSON.stringify(t.docs)}`).toBe('end');
  expect(t.docs.at(-1)!.spoken).toContain('is booked');
  expect(t.docs.filter((d) => d.kind === 'ask').map((d) => d.turn)).toEqual(['1', '2', '3', '4']);
}

/** The call's history is exactly `expected`, in order, with each message's deterministic id. */
export async function expectHistory(
  base: string,
  app: ProvisionedApp,
  callId: string,
  expected: ExpectedLine[],
) {
  const lines = await callHistory(base, app, callId);
  expect(
    lines.map((l) => `${l.type}: ${l.text}`),
    callId,
  ).toHaveLength(expected.length);
  expected.forEach((e, i) => {
    const line = lines[i]!;
    expect(line.type).toBe(e.type);
    if (typeof e.text === 'string') expect(line.text).toBe(e.text);
    else expect(line.text).toMatch(e.text);
    expect(line.id).toBe(messageId(callId, e.turn, e.type === 'incoming' ? 'in' : 'out'));
  });
  return lines;
}

/** Checks a whole set of booked calls: the first against the patterns, every other against it exactly. */
export async function expectBookingHistories(
  base: string,
  app: ProvisionedApp,
  callIds: string[],
): Promise<void> {
  const reference = await expectHistory(base, app, callIds[0]!, BOOKING_HISTORY);
  const exact = reference.map((l, i) => ({ turn: BOOKING_HISTORY[i]!.turn, type: l.type, text: l.text }));
  for (const callId of callIds.slice(1)) await expectHistory(base, app, callId, exact);
}

/** A finished booking call's session: turn numbers and answer agree, nothing pending, no lock. */
export async function expectSettledSession(
  sessions: CallSessionRepository,
  store: Store,
  streamId: string,
  callId: string,
): Promise<void> {
  const s = await sessions.load(streamId, callId);
  expect(s, callId).not.toBeNull();
  expect(s!.turn).toBe(5);
  expect(s!.last?.turn).toBe(4);
  expect(s!.last?.answer.action).toBe('end');
  expect(s!.pending).toBeUndefined();
  expect(s!.ended).toBe(true);
  expect(await store.exists(storeKeys.callLock(streamId, callId))).toBe(false);
}
