/** Builds the batch-tests component on a real app and store, with recognizers set per app. */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { expect } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/test-app.js';
import {
  createTestRunsComponent,
  type RecognizerPort,
  type TestRecognizer,
  type TestRunsComponent,
  type TestRunsOptions,
} from '../../src/testruns/index.js';
import type { Store } from '../../src/store/index.js';

export interface Harness {
  t: TestApp;
  component: TestRunsComponent;
  /** The recognizer each app's runs use (absent = the app has no agent). */
  agents: Map<string, TestRecognizer>;
}

/** One master key per test file: a restarted "process" must open what the first one sealed. */
export const MASTER_KEY = randomBytes(32);

/** `port`: the recognizers as the service wires them (a real agent registry's adapter), instead of `agents`. */
export async function makeHarness(
  store: Store,
  options: TestRunsOptions = {},
  agents = new Map<string, TestRecognizer>(),
  port?: RecognizerPort,
): Promise<Harness> {
  let component!: TestRunsComponent;
  const t = buildTestApp({
    store,
    config: { masterKey: MASTER_KEY },
    routes: (deps) => {
      component = createTestRunsComponent({
        ...deps,
        recognizers: port ?? { forApp: async (id) => agents.get(id) ?? null },
        options: { rateLimit: false, ...options },
      });
      return component.routes;
    },
  });
  await component.start();
  return { t, component, agents };
}

export const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

export async function putSuite(
  t: TestApp,
  streamId: string,
  name: string,
  utterances: unknown[],
): Promise<{ id: string }> {
  const res = await request(t.app)
    .put(`/api/admin/apps/${streamId}/testsuites/${encodeURIComponent(name)}`)
    .set(admin)
    .send({ utterances });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string };
}

export async function launch(
  t: TestApp,
  streamId: string,
  suite: string,
  token: string,
  runType?: string,
): Promise<string> {
  const res = await request(t.app)
    .post(`/api/public/bot/${streamId}/testsuite/${encodeURIComponent(suite)}/run`)
    .set('auth', token)
    .send(runType ? { runType } : {});
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return (res.body as { _id: string })._id;
}

export const statusPath = (streamId: string, suite: string, runId: string): string =>
  `/api/public/bot/${streamId}/testsuite/${encodeURIComponent(suite)}/${runId}/status`;

export type StatusBody = Record<string, any> & { status: string; result: Record<string, any> };

/** Polls the status endpoint until `done` holds (or the status is no longer running). */
export async function waitForStatus(
  t: TestApp,
  path: string,
  token: string,
  done: (b: StatusBody) => boolean = (b) => b.status !== 'running',
  timeoutMs = 15_000,
): Promise<StatusBody> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(t.app).get(path).set('auth', token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body as StatusBody;
    if (done(body)) return body;
    if (Date.now() > until) throw new Error(`status did not settle: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}
