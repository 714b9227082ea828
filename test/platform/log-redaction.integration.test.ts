import { afterAll, expect, it } from 'vitest';
import request from 'supertest';
import { MemoryStore } from '../../src/store/index.js';
import { buildTestApp } from '../helpers/test-app.js';
import { createLogger } from '../../src/platform/index.js';
import { LogCapture } from '../helpers/test-app.js';

const store = new MemoryStore('redact:');
afterAll(() => store.close());

it('when requests carry secrets in headers and the query, then no secret reaches the log', async () => {
  const t = buildTestApp({ store, config: { logLevel: 'trace' } });
  const client = await t.createAppWithClient(['chat-history']);
  const key = await t.createApiKey(['connections:view']);
  const jwt = client.token();
  await request(t.app)
    .get('/nowhere')
    .set('auth', jwt)
    .set('x-api-key', key)
    .set('Authorization', 'Bearer super-secret-admin');
  await request(t.app).post(`/ivr/hooks/st-x?token=${jwt}`).send({ callId: 'c1', token: jwt });
  const log = t.log.text();
  expect(log.length).toBeGreaterThan(0);
  for (const secret of [jwt, key, 'super-secret-admin', client.clientSecret])
    expect(log).not.toContain(secret);
  expect(log).toContain('[Redacted]');
});

it('when domain code logs an object holding secrets, then the known secret fields are censored', () => {
  const cap = new LogCapture();
  const logger = createLogger({ level: 'info', destination: cap });
  logger.info(
    {
      connection: {
        fields: { API_KEY: 'sk-live-123456' },
        headers: [{ key: 'Authorization', value: 'Bearer sk-live-123456' }],
      },
      clientSecret: 'cs-secret',
      pin: '90817263',
    },
    'saved',
  );
  const text = cap.text();
  expect(text).not.toContain('sk-live-123456');
  expect(text).not.toContain('cs-secret');
  expect(text).not.toContain('90817263'); // eight digits: a timestamp in the line can hardly hold them by chance
});
