/**
 * The pure layout: which ids a message is indexed under (the userId filter matches each of them).
 */
import { describe, expect, it } from 'vitest';
import { historyLayout } from '../../src/history/index.js';
import type { ValidMessage } from '../../src/history/history-schemas.js';

const message = (over: Partial<ValidMessage>): ValidMessage => ({
  id: 'ms-1',
  streamId: 'st-1',
  type: 'incoming',
  userId: 'u-1',
  identities: [],
  sessionId: 's-1',
  text: 'hi',
  channel: 'ivr',
  channelUId: '+1555',
  createdOn: 1_800_000_000_000,
  lang: 'en',
  taskKind: 'Dialog',
  ...over,
});

describe('history layout', () => {
  it("when a message's ids repeat, carry spaces or are empty, then each id is listed once, trimmed, in order", () => {
    const m = message({
      userId: ' u-1 ',
      identities: ['call-1', 'u-1', '', '  ', '+1555', 'call-1 '],
      callId: 'call-1',
    });
    expect(historyLayout.identitiesOf(m)).toEqual(['u-1', 'call-1', '+1555']);
    expect(historyLayout.identitiesOf(message({ userId: 'u-2', callId: 'c-2' }))).toEqual(['u-2', 'c-2']);
  });

  it('when a message is laid out, then its hash lists those ids and it joins one user index per id', () => {
    const m = message({ identities: ['call-1', '+1555'], callId: 'call-1' });
    const ops = historyLayout.messageOps(m, m.createdOn);
    const hash = ops.find((o) => o.op === 'hset');
    expect(hash && hash.op === 'hset' ? JSON.parse(hash.fields.ids!) : undefined).toEqual([
      'u-1',
      'call-1',
      '+1555',
    ]);
    const userIndexes = ops.filter((o) => o.op === 'zadd' && o.key.includes(':u:'));
    expect(userIndexes.map((o) => o.key.split(':u:')[1])).toEqual(['u-1', 'call-1', '%2B1555']);
  });

  it('when messages of one session carry other ids, another app or another task kind, then each is indexed under its own', () => {
    const userKeys = (m: ValidMessage) =>
      historyLayout
        .messageOps(m, m.createdOn)
        .filter((o) => o.op === 'zadd')
        .map((o) => o.key);
    const first = message({ sessionId: 's-memo', identities: ['call-1'], callId: 'call-1' });
    const again = message({ id: 'ms-2', sessionId: 's-memo', identities: ['call-1'], callId: 'call-1' });
    expect(userKeys(again)).toEqual(userKeys(first).map((k) => k));
    const moreIds = message({
      id: 'ms-3',
      sessionId: 's-memo',
      identities: ['call-1', '+1999'],
      callId: 'call-1',
    });
    expect(
      userKeys(moreIds)
        .filter((k) => k.includes(':u:'))
        .map((k) => k.split(':u:')[1]),
    ).toEqual(['u-1', 'call-1', '%2B1999']);
    const otherUser = message({
      id: 'ms-4',
      sessionId: 's-memo',
      userId: 'u-9',
      identities: ['call-1'],
      callId: 'call-1',
    });
    expect(
      userKeys(otherUser)
        .filter((k) => k.includes(':u:'))
        .map((k) => k.split(':u:')[1]),
    ).toEqual(['u-9', 'call-1']);
    const otherApp = message({
      id: 'ms-5',
      streamId: 'st-2',
      sessionId: 's-memo',
      identities: ['call-1'],
      callId: 'call-1',
    });
    expect(userKeys(otherApp).every((k) => k.includes('{a:st-2}'))).toBe(true);
    const alert = message({
      id: 'ms-6',
      sessionId: 's-memo',
      identities: ['call-1'],
      callId: 'call-1',
      taskKind: 'Alert',
    });
    expect(userKeys(alert).every((k) => k.includes(':h:ivr:x:'))).toBe(true);
    const tagged = message({
      id: 'ms-7',
      sessionId: 's-memo',
      identities: ['call-1'],
      callId: 'call-1',
      tags: { lang: 'en' },
    });
    expect(userKeys(tagged)).toEqual([...userKeys(first), expect.stringContaining(':t:lang=en')]);
  });

  it('when the ids a message was given are changed after it was laid out, then the next message of its session is laid out from its own ids', () => {
    const ids = ['call-1'];
    const m = message({ sessionId: 's-mutated', identities: ids, callId: 'call-1' });
    historyLayout.messageOps(m, m.createdOn);
    ids.push('+1777');
    const next = message({ id: 'ms-2', sessionId: 's-mutated', identities: ids, callId: 'call-1' });
    const hash = historyLayout.messageOps(next, next.createdOn).find((o) => o.op === 'hset');
    expect(hash && hash.op === 'hset' ? JSON.parse(hash.fields.ids!) : undefined).toEqual([
      'u-1',
      'call-1',
      '+1777',
    ]);
  });
});
