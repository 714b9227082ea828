/**
 * An unchanged agent sent again and again must not stall another tenant (issue 38, item 4): one
 * client re-sends the same ~800 KB agent to its app, back to back, while another app's calls take
 * turns. The re-sent definition is known by the hash of what was sent, before any validation, so
 * the other app's turn p99 stays within 5× of its baseline, taken in the same run in phases that
 * alternate with the re-sending ones (the large agent is live in both; only the re-sends differ). The upload rate limit is set
 * high here, so that it is the hash that is shown to hold, not the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/index.js';
import { IvrCall } from '../helpers/ivr-call.js';
import { waitUntilAgentLive } from '../helpers/agent-upload.js';
import { largeAgentDefinition } from '../helpers/large-agent.js';
import {
  createModelConnection,
  setupIvrApp,
  startGateway,
  type IvrApp,
  type RunningGateway,
} from '../helpers/test-gateway.js';
import { testPrefix } from '../helpers/test-stores.js';
import { demoAgentWith } from '../../src/agent/index.js';

const p99 = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)]!;
};

describe('an 800 KB agent re-sent unchanged while another app takes turns', () => {
  let store: MemoryStore;
  let gw: RunningGateway;
  let measured: IvrApp;
  let uploader: string;

  beforeAll(async () => {
    store = new MemoryStore(testPrefix());
    gw = await startGateway({
      store,
      config: {
        abuseLimits: {
          feedsPerSession: 8,
          feedsPerInstance: 100,
          agentUploadsPerMinute: 10_000,
          trainingQueueMax: 50,
        },
      },
    });
    measured = await setupIvrApp(gw, { name: 'measured' });
    uploader = (await setupIvrApp(gw, { name: 'uploader' })).streamId; // its skill group imported, as the agent's transfer names it
  }, 60_000);
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  async function turnTimes(calls: number, parallel: number): Promise<number[]> {
    const times: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next++ < calls) {
        const call = new IvrCall(gw, measured.webhookUrl);
        let t = performance.now();
        await call.start();
        times.push(performance.now() - t);
        for (const say of ['book a table', '4', 'march third']) {
          t = performance.now();
          await call.say(say);
          times.push(performance.now() - t);
        }
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
    return times;
  }

  it("when the same 800 KB agent is re-sent back to back, then it is known before validation and the other app's turn p99 stays within 5x of the baseline", async () => {
    const agent = largeAgentDefinition(800_000, { base: demoAgentWith(await createModelConnection(gw)) });
    const body = JSON.stringify(agent);
    expect(body.length).toBeGreaterThan(780_000);
    const put = () =>
      fetch(`${gw.url}/api/admin/apps/${uploader}/agent`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${gw.config.adminToken}`, 'Content-Type': 'application/json' },
        body,
      });
    const first = await put();
    const accepted = (await first.json()) as { latestVersion: string };
    expect(first.status, JSON.stringify(accepted).slice(0, 300)).toBe(202);
    const { latestVersion } = accepted;
    // the first upload's training runs on this machine's cores too: measure once it is live, so that
    // both phases see the same machine and only the re-sends differ
    await waitUntilAgentLive(async (method, path) => {
      const res = await fetch(`${gw.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${gw.config.adminToken}` },
      });
      return { status: res.status, body: await res.json() };
    }, uploader);

    await turnTimes(4, 4); // warm-up
    // baseline and re-sending phases alternate, so that a drift of the machine's load falls on both
    const baseline: number[] = [];
    const loaded: number[] = [];
    let resent = 0;
    const answers = new Set<string>();
    for (let pair = 0; pair < 3; pair++) {
      baseline.push(...(await turnTimes(8, 4)));
      let sending = true;
      const resender = (async () => {
        while (sending) {
          const res = await put();
          const status = (await res.json()) as { latestVersion: string };
          answers.add(`${res.status} ${status.latestVersion}`);
          resent++;
        }
      })();
      loaded.push(...(await turnTimes(8, 4)));
      sending = false;
      await resender;
    }

    const ratio = p99(loaded) / p99(baseline);
    console.info(
      `[agent-reupload] baseline p99 ${p99(baseline).toFixed(1)} ms, while re-sending p99 ${p99(loaded).toFixed(1)} ms, ratio ${ratio.toFixed(2)}; ${resent} re-sends of ${body.length} bytes`,
    );
    expect(resent).toBeGreaterThan(10);
    // every re-send was answered as the same upload (training, or live once trained)
    expect([...answers]).toEqual([`202 ${latestVersion}`]);
    // Diffing each re-send for the audit trail took this to 7.4x (validating it, before the hash, did
    // worse). What is left is reading, scanning and hashing 800 KB a re-send, about 12 a second here
    // (the default limit is 10 a minute): 2.6-3.7x on a quiet machine, so the bar is 5x.
    expect(ratio).toBeLessThanOrEqual(5);
  }, 240_000);
});
