/**
 * A transport over node:http/https that connects to the address the endpoint guard checked (the
 * `lookup` answers with the pinned address), so the host cannot re-resolve elsewhere between the
 * check and the connection. TLS still verifies the certificate against the host name. No redirects
 * are followed; one connection per call (no pooled sockets outliving the check).
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { AnswerTooLargeError, type ModelTransport } from './model-transport.js';
import type { ResolvedAddress } from './endpoint-guard.js';

const pinnedLookup = (pin: ResolvedAddress): LookupFunction =>
  ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (opts?.all) cb(null, [{ address: pin.address, family: pin.family }]);
    else cb(null, pin.address, pin.family);
  }) as unknown as LookupFunction;

export const pinnedTransport: ModelTransport = (req) =>
  new Promise((resolve, reject) => {
    const url = new URL(req.url);
    const mod = url.protocol === 'https:' ? https : http;
    const body = Buffer.from(req.body, 'utf8');
    const r = mod.request(
      url,
      {
        method: 'POST',
        headers: { ...req.headers, 'content-length': String(body.length) },
        signal: req.signal,
        agent: false,
        ...(req.pin ? { lookup: pinnedLookup(req.pin) } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > req.maxBytes) {
            res.destroy();
            reject(new AnswerTooLargeError());
          } else chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
        res.on('aborted', () => reject(new Error('answer aborted')));
      },
    );
    r.on('error', reject);
    r.end(body);
  });
