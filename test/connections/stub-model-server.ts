/** A real local model server (node:http on 127.0.0.1, port 0) that records what it receives. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: unknown;
}

export interface StubReply {
  status?: number;
  json?: unknown;
  text?: string;
  delayMs?: number;
}

export interface StubModelServer {
  url: string;
  port: number;
  requests: StubRequest[];
  reply: (fn: (req: StubRequest) => StubReply) => void;
  close: () => Promise<void>;
}

export async function startStubModelServer(): Promise<StubModelServer> {
  const requests: StubRequest[] = [];
  let handler: (req: StubRequest) => StubReply = () => ({
    json: { choices: [{ message: { content: 'ok' } }] },
  });
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const r: StubRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        raw,
        body,
      };
      requests.push(r);
      const reply = handler(r);
      const send = () => {
        if (res.destroyed) return;
        res.statusCode = reply.status ?? 200;
        if (reply.text !== undefined) {
          res.setHeader('content-type', 'text/plain');
          res.end(reply.text);
        } else {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(reply.json ?? {}));
        }
      };
      if (reply.delayMs) {
        const t = setTimeout(() => {
          timers.delete(t);
          send();
        }, reply.delayMs);
        timers.add(t);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    reply: (fn) => {
      handler = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
