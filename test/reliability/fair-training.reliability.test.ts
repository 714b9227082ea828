/**
 * Training is fair across apps (issue 38, item 4): on one real training thread, three apps' large
 * agents are queued and then a small agent of a fourth app; the small one is trained right after the
 * large one already on the thread, ahead of the two large ones still waiting (the order of
 * completion is judged, not a duration). The queue is bounded: past AGENT_TRAINING_QUEUE_MAX
 * waiting jobs, a new app's upload is refused with 429 and Retry-After, while an app that already
 * waits may replace its own job. And over HTTP: uploads past AGENT_UPLOADS_PER_MINUTE are refused
 * with 429, per app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAgentDefinition, validateAgentDefinition } from '../../src/agent/index.js';
import { createTrainingPool, type TrainingPool } from '../../src/admin/index.js';
import { AppError } from '../../src/platform/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { largeAgentDefinition } from '../helpers/large-agent.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import { testPrefix } from '../helpers/test-stores.js';

/** A definition as the registry hands it to the pool: validated, defaults applied, as JSON. */
function validatedJson(input: unknown): string {
  const checked = validateAgentDefinition(input);
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems.slice(0, 3)));
  return JSON.stringify(checked.definition);
}

describe('fair training across apps', () => {
  let pool: TrainingPool;
  beforeAll(() => {
    pool = createTrainingPool({ threads: 1, maxQueued: 3 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it("when three apps' large agents wait and a small one comes, then the small one is trained after the one on the thread, before the others", async () => {
    const large = validatedJson(largeAgentDefinition(80_000));
    const small = validatedJson(demoAgentDefinition);
    const done: string[] = [];
    const job = (app: string, json: string) => pool.train(json, undefined, app).then(() => done.push(app));
    const jobs = [job('large-a', large), job('large-b', large), job('large-c', large)];
    jobs.push(job('small-d', small));
    await Promise.all(jobs);
    expect(done[0]).toBe('large-a');
    expect(done[1]).toBe('small-d');
    expect(done.slice(2).sort()).toEqual(['large-b', 'large-c']);
  }, 180_000);

  it('when the queue is full, then a new app is refused with 429 and Retry-After, while a waiting app may replace its job', async () => {
    const small = validatedJson(demoAgentDefinition);
    const controller = new AbortController();
    const running = [
      pool.train(small, undefined, 'a'),
      pool.train(small, undefined, 'b'),
      pool.train(small, undefined, 'c'),
      pool.train(small, controller.signal, 'd'),
    ];
    // one is on the thread, three wait: the queue (3) is full
    let refused: unknown;
    try {
      pool.admit('e');
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(429);
    expect(Number((refused as AppError).headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(() => pool.admit('d')).not.toThrow();
    // d's waiting job is replaced: aborted, it leaves the queue, which makes room
    controller.abort();
    await expect(running[3]).rejects.toMatchObject({ name: 'AbortError' });
    expect(() => pool.admit('e')).not.toThrow();
    await Promise.all(running.slice(0, 3));
  }, 120_000);
});

describe('agent uploads rate-limited per app', () => {
  let store: MemoryStore;
  let gw: RunningGateway;
  beforeAll(async () => {
    store = new MemoryStore(testPrefix());
    gw = await startGateway({
      store,
      config: {
        abuseLimits: {
          feedsPerSession: 8,
          feedsPerInstance: 100,
          agentUploadsPerMinute: 3,
          trainingQueueMax: 50,
        },
      },
    });
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  it('when an app sends more uploads a minute than allowed, then the next is refused with 429 and Retry-After, and another app is not', async () => {
    const mk = async (name: string) =>
      (await gw.admin('POST', '/api/admin/apps', { name, language: 'en' })).body.streamId as string;
    const [one, two] = [await mk('one'), await mk('two')];
    const put = (streamId: string) =>
      fetch(`${gw.url}/api/admin/apps/${streamId}/agent`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${gw.config.adminToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ intents: 'not an agent' }),
      });
    for (let i = 0; i < 3; i++) expect((await put(one)).status).toBe(400);
    const over = await put(one);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await over.json()).toMatchObject({ errors: [{ code: 'rate_limited' }] });
    expect((await put(two)).status).toBe(400);
  });
});
