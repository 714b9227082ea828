/** A local chat-completions endpoint with a settable delay, counting the requests it received. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const MODEL_ANSWER = 'We are open from noon to eleven, every day.';

export interface ModelStub {
  url: string;
  /** Requests received so far (including ones whose caller went away). */
  received: () => number;
  setDelay: (ms: number) => void;
  close: () => Promise<void>;
}

export async function startModelStub(): Promise<ModelStub> {
  let delayMs = 0;
  let count = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      const timer = setTimeout(() => {
        res.setHeader('Content-Type', 'application/json');
        res.end(
          JSON.stringify({
            choices: [{ message: { content: MODEL_ANSWER } }],
            usage: { prompt_tokens: 10, completion_tokens: 10 },
          }),
        );
      }, delayMs);
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`,
    received: () => count,
    setDelay: (ms) => (delayMs = ms),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
