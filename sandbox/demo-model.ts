/**
 * A local stand-in for a model provider, for the demo: an OpenAI-style chat-completions endpoint
 * that answers Luigi's callers from a few canned facts (opening hours, menu, parking…). It is outside
 * the gateway, as a real provider is; the demo's model connection points at it.
 *   npm run demo:model -- [--port 3999]
 * The gateway must be allowed to call a local address: start it with ALLOW_PRIVATE_MODEL_ENDPOINTS=true.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const FACTS: Array<[RegExp, string]> = [
  [
    /open|hour|close|sunday|monday|today|tonight/i,
    'We are open every day from noon to eleven in the evening.',
  ],
  [
    /vegan|vegetarian|gluten|allerg/i,
    'Yes, we have vegan and gluten-free pasta and pizza; just tell your waiter.',
  ],
  [/where|address|located|find you/i, 'We are at 12 Harbour Street, next to the old lighthouse.'],
  [/park/i, 'There is free parking behind the restaurant for guests.'],
  [/menu|pizza|pasta|price|cost|much/i, 'Pizzas are from nine to fifteen euros, and pasta from eleven.'],
  [/dog|pet/i, 'Dogs are welcome on the terrace.'],
];
const DEFAULT = 'I am not sure about that; our staff will gladly help if you ask to talk to a person.';

/** The canned answer to the caller's question (the last user message). */
export function demoAnswer(question: string): string {
  return FACTS.find(([re]) => re.test(question))?.[1] ?? DEFAULT;
}

function lastUserText(body: unknown): string {
  const messages = (body as { messages?: Array<{ role?: string; content?: unknown }> } | null)?.messages;
  if (!Array.isArray(messages)) return '';
  const last = messages.filter((m) => m.role === 'user').at(-1);
  return typeof last?.content === 'string' ? last.content : '';
}

export interface DemoModel {
  url: string;
  close(): Promise<void>;
}

/** Starts the demo model on 127.0.0.1 (port 0 picks a free one); its chat-completions URL. */
export async function startDemoModel(port = 0): Promise<DemoModel> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // answered below as a bad request
      }
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/chat/completions') || body === null) {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(
            JSON.stringify({ error: { message: 'POST a chat-completions body to /v1/chat/completions' } }),
          );
        return;
      }
      const question = lastUserText(body);
      const content = demoAnswer(question);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          choices: [{ index: 0, message: { role: 'assistant', content } }],
          usage: {
            prompt_tokens: question.split(/\s+/).length,
            completion_tokens: content.split(/\s+/).length,
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/v1/chat/completions`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '3999' } } });
  const model = await startDemoModel(Number(values.port));
  process.stdout.write(
    `demo model answering at ${model.url}\n  npm run demo:setup -- --model-url ${model.url} …\n`,
  );
}
