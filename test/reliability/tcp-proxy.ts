/**
 * A loopback TCP proxy in front of a server, to simulate a network partition: `silence()` stops
 * forwarding on the connections open at that moment without closing them (no FIN, no RST, as when
 * a host dies or a link drops), while new connections still go through. `accepted()` counts the
 * connections made so far, so a test can tell when its client gave up and connected again.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  port: number;
  url: string;
  silence(): number;
  accepted(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let accepted = 0;
  const server: Server = createServer((client) => {
    accepted++;
    const upstream = connect(targetPort, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  const silenced: Socket[] = [];
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    accepted: () => accepted,
    silence() {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
        silenced.push(client, upstream);
      }
      const n = pairs.size;
      pairs.clear();
      return n;
    },
    async close() {
      for (const s of silenced) s.destroy();
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
