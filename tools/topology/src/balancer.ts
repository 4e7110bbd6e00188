import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * What Compose's service name gives several replicas: one address, connections spread over the
 * instances in turn. A connection goes to the next instance that accepts it, so a dead instance
 * is skipped (like nginx's "try the next upstream only when one cannot be reached"); bytes are
 * never replayed to another instance once sent. TCP, not HTTP: keep-alive connections stay on
 * the instance they reached, as they would behind Docker's DNS round robin.
 */
export interface Balancer {
  url: string;
  port: number;
  /** Connections each backend has taken so far, by port. */
  connections: Map<number, number>;
  close: () => Promise<void>;
}

function attach(client: Socket, upstream: Socket): void {
  client.pipe(upstream).pipe(client);
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', end).on('close', end);
  upstream.on('error', end).on('close', end);
}

export async function startBalancer(backendPorts: () => number[], listenPort = 0, host = '127.0.0.1'): Promise<Balancer> {
  const connections = new Map<number, number>();
  const sockets = new Set<Socket>();
  let next = 0;
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.pause();
    const ports = backendPorts();
    const tryBackend = (tries: number) => {
      if (tries >= ports.length) {
        client.destroy();
        return;
      }
      const port = ports[next++ % ports.length]!;
      const upstream = connect({ port, host });
      upstream.once('error', () => tryBackend(tries + 1));
      upstream.once('connect', () => {
        upstream.removeAllListeners('error');
        connections.set(port, (connections.get(port) ?? 0) + 1);
        sockets.add(upstream);
        upstream.once('close', () => sockets.delete(upstream));
        attach(client, upstream);
        client.resume();
      });
    };
    tryBackend(0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${host}:${port}`,
    port,
    connections,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
