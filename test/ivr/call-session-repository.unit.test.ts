/**
 * Reading stored call sessions: a session written before the app's id was named `streamId` in code
 * (it carried `appId`) still loads, as the same call, and is written back under the new name.
 */
import { describe, expect, it } from 'vitest';
import { MemoryStore, storeKeys } from '../../src/store/index.js';
import { CallSessionRepository } from '../../src/ivr/call-session-repository.js';

const older = {
  v: 1,
  appId: 'st-1',
  callId: 'call-1',
  userId: 'u-1',
  sessionId: 's-1',
  createdOn: 1_800_000_000_000,
  turn: 2,
  state: null,
};

describe('call session repository', () => {
  it('when a session stored with appId is loaded, then it reads as streamId', async () => {
    const store = new MemoryStore('t:');
    const repo = new CallSessionRepository(store, 60_000);
    await store.set(storeKeys.callSession('st-1', 'call-1'), JSON.stringify(older));
    const session = await repo.load('st-1', 'call-1');
    expect(session).toMatchObject({ streamId: 'st-1', callId: 'call-1', turn: 2 });
    expect(session).not.toHaveProperty('appId');
    const locked = await repo.lockAndLoad('st-1', 'call-1', 'tok');
    expect(locked).toMatchObject({
      locked: true,
      created: false,
      session: { streamId: 'st-1', callId: 'call-1' },
    });
    expect(await repo.commit({ ...session!, turn: 3 }, 'tok')).toBe(true);
    const raw = JSON.parse((await store.get(storeKeys.callSession('st-1', 'call-1')))!) as Record<
      string,
      unknown
    >;
    expect(raw).toMatchObject({ streamId: 'st-1', turn: 3 });
    expect(raw).not.toHaveProperty('appId');
  });

  it('when a session stored with streamId is loaded, then it reads unchanged', async () => {
    const store = new MemoryStore('t:');
    const repo = new CallSessionRepository(store, 60_000);
    const { appId, ...rest } = older;
    const current = { ...rest, streamId: appId };
    await store.set(storeKeys.callSession('st-1', 'call-1'), JSON.stringify(current));
    expect(await repo.load('st-1', 'call-1')).toEqual(current);
  });
});
