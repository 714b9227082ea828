/** One info line per turn, and turns counted by app (bounded) and outcome on /metrics. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/index.js';
import { APP_LABELS_MAX, createMetrics } from '../../src/platform/metrics.js';
import { IvrCall, kindOf } from '../helpers/ivr-call.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { testPrefix } from '../helpers/test-stores.js';

describe('what an operator sees of each turn', () => {
  let gw: RunningGateway;
  let app: IvrApp;
  beforeAll(async () => {
    gw = await startGateway({ store: new MemoryStore(testPrefix()) });
    app = await setupIvrApp(gw);
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
  });

  it('when a call takes two turns, then each has one info line with call, app, node, outcome and latency, and no token', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    await call.say('book a table');
    const lines = gw.log.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'turn answered' && l.callId === call.callId);
    expect(lines).toHaveLength(2);
    for (const l of lines) {
      expect(l).toMatchObject({ level: 30, streamId: app.streamId, outcome: 'ask' });
      expect(typeof l.latencyMs).toBe('number');
    }
    expect(lines[1]).toMatchObject({ node: 'book.size' });
    expect(JSON.stringify(lines)).not.toContain(app.token.slice(20));
    expect(JSON.stringify(lines)).not.toContain('book a table');
  });

  it('when a call runs from its first turn to its last, then every turn answered line has its turn number and the node that answered', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    const kinds = [kindOf(await call.start())];
    for (const words of ['book a table', 'four', 'march third', 'yes'])
      kinds.push(kindOf(await call.say(words)));
    while (kinds.at(-1) === 'continue' && kinds.length < 12) kinds.push(kindOf(await call.event('continue')));
    expect(kinds.at(-1)).toBe('end');
    const lines = gw.log.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'turn answered' && l.callId === call.callId);
    expect(lines.map((l) => l.outcome)).toEqual(kinds);
    expect(lines.map((l) => l.turn)).toEqual(lines.map((_, i) => i));
    for (const l of lines) expect(l.node, JSON.stringify(l)).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(lines[1]!.node).toBe('book.size');
  });

  it('when turns are answered, then /metrics counts them by app and outcome', async () => {
    const text = await (await fetch(`${gw.url}/metrics`)).text();
    expect(text).toMatch(new RegExp(`ivr_app_turns_total\\{app="${app.streamId}",outcome="ask"\\} [1-9]`));
  });

  it('when more apps than the bound take calls, then the others share the "other" label', () => {
    const metrics = createMetrics();
    const labels = Array.from({ length: APP_LABELS_MAX + 5 }, (_, i) => metrics.appLabel(`st-${i}`));
    expect(new Set(labels).size).toBe(APP_LABELS_MAX + 1);
    expect(labels.at(-1)).toBe('other');
    expect(metrics.appLabel('st-0')).toBe('st-0');
  });
});
