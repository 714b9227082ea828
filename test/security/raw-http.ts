/**
 * A raw HTTP client for hostile requests: any bytes as the body, any header (or none), a chosen
 * local address (so brute-force lockouts of one client address do not block the others), and a
 * chunked body streamed without Content-Length that the server may cut off before it finishes.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface RawRequest {
  method: string;
  /** Path and query, sent as given (no re-encoding). */
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** Client address, e.g. 127.0.0.7 (any 127/8 address reaches a server on 127.0.0.1). */
  localAddress?: string;
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  contentType: string;
}

function collect(res: import('node:http').IncomingMessage): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('error', reject);
    res.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text,
        contentType: String(res.headers['content-type'] ?? ''),
      });
    });
  });
}

/** Sends one request with a Content-Length body (or none). */
export function send(baseUrl: string, req: RawRequest): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const body =
    req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers: { ...(body ? { 'Content-Length': String(body.length) } : {}), ...(req.headers ?? {}) },
        ...(req.localAddress ? { localAddress: req.localAddress } : {}),
        agent: false,
      },
      (res) => {
        collect(res).then(resolve, reject);
      },
    );
    r.on('error', reject);
    r.end(body);
  });
}

export interface StreamedAnswer extends RawAnswer {
  /** Bytes written before the answer arrived. */
  bytesWrittenBeforeAnswer: number;
  /** Whether the whole planned body had been written when the answer arrived. */
  finishedBeforeAnswer: boolean;
}

/**
 * Streams a chunked body (no Content-Length) of `chunks` pieces of `chunk` bytes, a few ms apart,
 * and stops writing as soon as the server answers.
 */
export function sendChunked(
  baseUrl: string,
  req: Omit<RawRequest, 'body'> & { chunk: Buffer; chunks: number; prefix?: string },
): Promise<StreamedAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    let finished = false;
    const r = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        // keep-alive, as browsers send: with `Connection: close` (Node's default without an agent) the
        // server closes right after an early answer and the rest of the upload meets a reset
        headers: { 'Transfer-Encoding': 'chunked', Connection: 'keep-alive', ...(req.headers ?? {}) },
        agent: false,
      },
      (res) => {
        answered = true;
        const at = written;
        const done = finished;
        collect(res).then((a) => {
          r.destroy();
          resolve({ ...a, bytesWrittenBeforeAnswer: at, finishedBeforeAnswer: done });
        }, reject);
      },
    );
    r.on('error', (err) => {
      if (!answered) reject(err);
    });
    // stop writing as soon as the server says anything
    let serverSpoke = false;
    r.on('socket', (socket) => socket.on('data', () => (serverSpoke = true)));
    if (req.prefix) {
      r.write(req.prefix);
      written += Buffer.byteLength(req.prefix);
    }
    let sent = 0;
    const pump = (): void => {
      if (answered || serverSpoke || r.destroyed) return;
      if (sent >= req.chunks) {
        finished = true;
        r.end();
        return;
      }
      sent++;
      r.write(req.chunk, () => setTimeout(pump, 2));
      written += req.chunk.length;
    };
    pump();
  });
}
