/**
 * A loopback TCP proxy in front of Redis that can stop a client at an exact command: once armed
 * with a marker (a piece of a key, such as a table's hash tag), the first chunk the client sends
 * that holds it is kept back, with everything after it on that connection. The command never
 * reaches Redis (at most its start does, which Redis waits on), exactly as if the client's process
 * died just before sending it; the test then kills the process for real. Replies flow as usual.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CommandGate {
  url: string;
  /** Resolves once a chunk holding `marker` was held back (arms the gate for one hold). */
  holdAt(marker: string): Promise<void>;
  close(): Promise<void>;
}

export async function startCommandGate(target: { host: string; port: number }): Promise<CommandGate> {
  const sockets = new Set<Socket>();
  let armed: { marker: string; held: () => void } | undefined;
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let held = false;
    let tail = '';
    client.on('data', (chunk: Buffer) => {
      if (held) return;
      const text = chunk.toString('latin1');
      if (armed && (tail + text).includes(armed.marker)) {
        held = true;
        const { held: done } = armed;
        armed = undefined;
        done();
        return;
      }
      tail = text.slice(-256);
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const drop = () => {
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    holdAt(marker) {
      return new Promise<void>((resolve) => {
        armed = { marker, held: resolve };
      });
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
