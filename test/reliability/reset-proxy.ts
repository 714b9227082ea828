/**
 * A loopback HTTP proxy in front of the service that can drop an answer: the request the test picks
 * is forwarded to the service, which answers it, and then the browser's connection is reset (TCP
 * RST) instead of the answer being passed back — what the browser sees when an instance dies after
 * it received a turn and before it answered, or a load balancer resets the connection. Every other
 * request goes through unchanged (Host kept, so the documents' submit URLs point at the proxy).
 */
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  /** Query and urlencoded body parameters (the body wins), as the service reads them. */
  params: Record<string, string>;
  /** The service's status for it. */
  status: number;
  /** Its answer was dropped and the browser's connection reset. */
  reset: boolean;
}

export interface ResetProxy {
  /** The proxy's base URL (http://127.0.0.1:<port>). */
  url: string;
  /** The next request `pick` matches is answered by the service, then reset instead of passed back. */
  resetNext(pick: (r: Omit<ProxiedRequest, 'status' | 'reset'>) => boolean): void;
  /** Every request forwarded so far, in order. */
  readonly log: ProxiedRequest[];
  close(): Promise<void>;
}

const readAll = (stream: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });

function forward(
  port: number,
  req: IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const up = request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
      (res) => {
        readAll(res).then(
          (b) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: b }),
          reject,
        );
      },
    );
    up.on('error', reject);
    up.end(body);
  });
}

export async function startResetProxy(targetPort: number): Promise<ResetProxy> {
  const log: ProxiedRequest[] = [];
  let pick: ((r: Omit<ProxiedRequest, 'status' | 'reset'>) => boolean) | undefined;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      const url = new URL(req.url ?? '/', 'http://proxy');
      const params: Record<string, string> = Object.fromEntries(url.searchParams);
      if ((req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
        Object.assign(params, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
      const seen = { method: req.method ?? 'GET', path: url.pathname, params };
      const answer = await forward(targetPort, req, body);
      const reset = pick !== undefined && pick(seen);
      log.push({ ...seen, status: answer.status, reset });
      if (reset) {
        pick = undefined;
        // the service answered; the browser gets a reset instead of the answer
        req.socket.resetAndDestroy();
        return;
      }
      const headers = { ...answer.headers };
      delete headers['transfer-encoding'];
      delete headers.connection;
      res
        .writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) })
        .end(answer.body);
    })().catch(() => req.socket.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    resetNext: (p) => (pick = p),
    log,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
