/**
 * A real HTTP server (node:http, 127.0.0.1, port 0) that plays the gateway in the order of a
 * scenario: each request to /ivr/hooks/… gets the next answer (a spec example document with
 * https://gateway.example.com rewritten to this server, a status, an optional delay), and every
 * request's method, query and body are recorded, like the README's runs.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';

const here = dirname(fileURLToPath(import.meta.url));

/** The example documents (test/fixtures/vxml-examples, the project's own fixtures). */
export function examplesDir(): string {
  const dir = resolve(here, '../fixtures/vxml-examples');
  if (!existsSync(join(dir, 'bootstrap.vxml'))) throw new Error(`example documents missing: ${dir}`);
  return dir;
}

export const EXAMPLE_ORIGIN = 'https://gateway.example.com';
export const STREAM_ID = 'st-1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';
export const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.TOKEN-PLACEHOLDER.SIG';

export interface StubAnswer {
  /** A spec example file name (e.g. ask-intent.vxml) … */
  file?: string;
  /** … or a literal body (also rewritten). */
  body?: string;
  status?: number;
  delayMs?: number;
  /** Edits the document before it is served (e.g. swap a grammar). */
  transform?: (xml: string) => string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, string>;
  contentType: string | undefined;
  /** What was served. */
  answered: string;
}

export interface GatewayStub {
  origin: string;
  webhookUrl: string;
  requests: RecordedRequest[];
  /** Requests to the webhook only (/ivr/hooks/…). */
  hookRequests(): RecordedRequest[];
  /** A spec example with the example host rewritten to this server. */
  example(file: string): string;
  close(): Promise<void>;
}

export interface StubRoutes {
  /** Answers for /ivr/hooks/…, served in order. */
  hooks: StubAnswer[];
  /** Answers for other paths, by path (each served in order; the last one repeats). */
  other?: Record<string, StubAnswer[]>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startGatewayStub(routes: StubRoutes): Promise<GatewayStub> {
  const requests: RecordedRequest[] = [];
  let origin = '';
  const example = (file: string): string =>
    readFileSync(join(examplesDir(), file), 'utf8').split(EXAMPLE_ORIGIN).join(origin);
  const hookQueue = [...routes.hooks];
  const otherQueues = new Map(Object.entries(routes.other ?? {}).map(([k, v]) => [k, [...v]]));

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      const raw = await readBody(req);
      const contentType = req.headers['content-type'];
      const body = contentType?.startsWith('application/x-www-form-urlencoded')
        ? Object.fromEntries(new URLSearchParams(raw))
        : {};
      let answer: StubAnswer | undefined;
      if (url.pathname.startsWith('/ivr/hooks/')) answer = hookQueue.shift();
      else {
        const queue = otherQueues.get(url.pathname);
        answer = queue && queue.length > 1 ? queue.shift() : queue?.[0];
      }
      const record: RecordedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body,
        contentType,
        answered: answer?.file ?? (answer ? 'body' : 'nothing (404)'),
      };
      requests.push(record);
      if (!answer) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('scenario exhausted');
        return;
      }
      if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
      let text = answer.file ? example(answer.file) : (answer.body ?? '').split(EXAMPLE_ORIGIN).join(origin);
      if (answer.transform) text = answer.transform(text);
      res
        .writeHead(answer.status ?? 200, { 'Content-Type': 'application/voicexml+xml; charset=utf-8' })
        .end(text);
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    webhookUrl: `${origin}/ivr/hooks/${STREAM_ID}?token=${TOKEN}`,
    requests,
    hookRequests: () => requests.filter((r) => r.path.startsWith('/ivr/hooks/')),
    example,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
