/**
 * The pure layout: which ids a message is indexed under (the userId filter matches each of them).
 */
import { describe, expect, it } from 'vitest';
import { historyLayout } from '../../src/history/index.js';
import type { ValidMessage } from '../../src/history/history-schemas.js';

const message = (over: Partial<ValidMessage>): ValidMessage =>
  ({
    id: 'ms-1', botId: 'st-1', type: 'incoming', userId: 'u-1', identities: [], sessionId: 's-1', text: 'hi', channel: 'ivr',
    channelUId: '+1555', createdOn: 1_800_000_000_000, lang: 'en', taskKind: 'Dialog', ...over,
  }) as ValidMessage;

describe('history layout', () => {
  it('when a message\'s ids repeat, carry spaces or are empty, then each id is listed once, trimmed, in order', () => {
    const m = message({ userId: ' u-1 ', identities: ['call-1', 'u-1', '', '  ', '+1555', 'call-1 '], callId: 'call-1' });
    expect(historyLayout.identitiesOf(m)).toEqual(['u-1', 'call-1', '+1555']);
    expect(historyLayout.identitiesOf(message({ userId: 'u-2', callId: 'c-2' }))).toEqual(['u-2', 'c-2']);
  });

  it('when a message is laid out, then its hash lists those ids and it joins one user index per id', () => {
    const m = message({ identities: ['call-1', '+1555'], callId: 'call-1' });
    const ops = historyLayout.messageOps(m, m.createdOn);
    const hash = ops.find((o) => o.op === 'hset');
    expect(hash && hash.op === 'hset' ? JSON.parse(hash.fields.ids!) : undefined).toEqual(['u-1', 'call-1', '+1555']);
    const userIndexes = ops.filter((o) => o.op === 'zadd' && o.key.includes(':u:'));
    expect(userIndexes.map((o) => o.key.split(':u:')[1])).toEqual(['u-1', 'call-1', '%2B1555']);
  });
});
