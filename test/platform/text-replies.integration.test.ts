/**
 * XML and text replies: their type with charset, their length in bytes, compressed when the
 * client asks, headers only for HEAD.
 */
import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { defineRoute } from '../../src/platform/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

const store = new MemoryStore('text-replies:');
// multi-byte text, long enough to be over the compression threshold
const big = `<?xml version="1.0" encoding="UTF-8"?><vxml version="2.1"><form><block><prompt>${'Grüße – ☎ '.repeat(300)}</prompt></block></form></vxml>`;
let t: TestApp;

beforeAll(() => {
  t = buildTestApp({
    store,
    routes: () => [
      defineRoute({
        method: ['get', 'post'],
        path: '/t/doc',
        summary: 'test',
        tags: ['test'],
        auth: { kind: 'none' },
        responses: {},
        handler: async () => ({ status: 201, xml: big }),
      }),
      defineRoute({
        method: 'get',
        path: '/t/csv',
        summary: 'test',
        tags: ['test'],
        auth: { kind: 'none' },
        responses: {},
        handler: async () => ({
          text: 'a,b\n1,2\n',
          contentType: 'text/csv',
          headers: { 'Content-Disposition': 'attachment; filename="r.csv"' },
        }),
      }),
    ],
  });
});
afterAll(() => store.close());

describe('text replies', () => {
  it('when an XML reply is sent, then it carries the VoiceXML type with charset, its status and its length in bytes', async () => {
    const res = await request(t.app)
      .post('/t/doc')
      .set('Accept-Encoding', 'identity')
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/voicexml+xml; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(big));
    expect((res.body as Buffer).toString('utf8')).toBe(big);
  });

  it('when a text reply names a type without charset, then utf-8 is added and its own headers are kept', async () => {
    const res = await request(t.app).get('/t/csv').expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="r.csv"');
    expect(res.text).toBe('a,b\n1,2\n');
  });

  it('when the client accepts gzip, then a large XML reply is gzip-encoded and decodes to the document', async () => {
    const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const server = t.app.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        get({ host: '127.0.0.1', port, path: '/t/doc', headers: { 'Accept-Encoding': 'gzip' } }, (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => server.close(() => resolve({ headers: r.headers, body: Buffer.concat(chunks) })));
        }).on('error', reject);
      });
    });
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(raw.body).toString('utf8')).toBe(big);
  });

  it('when the request is HEAD, then the headers come without a body', async () => {
    const res = await request(t.app).head('/t/doc').expect(201);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(big));
    expect(res.text ?? '').toBe('');
  });
});
