/**
 * A child process that holds many live feeds open (forked by feed-load.load.test.ts, so that reading
 * them costs the measured process nothing): opens `count` feeds of `url` with the Bearer `token`,
 * answers `{opened, statuses}` when they are open and `{turns}` (the fewest turn events any feed
 * got) when asked, and closes them on `close`.
 */
import { request, Agent } from 'node:http';

const [url, token, countArg] = process.argv.slice(2);
const count = Number(countArg);
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
const turns: number[] = [];
const statuses: number[] = [];
const requests: Array<{ destroy: () => void }> = [];

function open(i: number): Promise<void> {
  return new Promise((resolve) => {
    turns[i] = 0;
    const req = request(url!, { agent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
      statuses[i] = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        turns[i]! += chunk.split('event: turn').length - 1;
      });
      res.on('error', () => undefined);
      resolve();
    });
    req.on('error', () => {
      statuses[i] = -1;
      resolve();
    });
    requests.push(req);
    req.end();
  });
}

process.on('message', (msg: string) => {
  if (msg === 'turns') process.send!({ turns: Math.min(...turns) });
  if (msg === 'close') {
    for (const r of requests) r.destroy();
    agent.destroy();
    process.exit(0);
  }
});

for (let i = 0; i < count; i += 50)
  await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, k) => open(i + k)));
process.send!({ opened: statuses.filter((s) => s === 200).length, statuses: [...new Set(statuses)] });
