/** A transport over `fetch` (hosted providers at operator-configured URLs); redirects are refused. */
import { AnswerTooLargeError, type ModelTransport } from './model-transport.js';

export function fetchTransport(fetchImpl: typeof fetch = globalThis.fetch): ModelTransport {
  return async (req) => {
    const res = await fetchImpl(req.url, {
      method: 'POST',
      headers: req.headers,
      body: req.body,
      signal: req.signal,
      redirect: 'error',
    });
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > req.maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw new AnswerTooLargeError();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (res.body) {
      // undici types the body as a stream of `any`; the Fetch standard makes it a stream of bytes
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > req.maxBytes) {
          await reader.cancel().catch(() => undefined);
          throw new AnswerTooLargeError();
        }
        chunks.push(value);
      }
    }
    return { status: res.status, text: Buffer.concat(chunks).toString('utf8') };
  };
}
