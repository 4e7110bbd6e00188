import { createServer } from 'node:net';

/** True when nothing listens on host:port. */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** A port the OS says is free right now. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export class PortTakenError extends Error {}

/** Fails with a message that says which port and what to do about it. */
export async function requirePort(port: number, what: string, envVar: string): Promise<void> {
  if (!(await isPortFree(port))) {
    throw new PortTakenError(
      `Port ${port} (${what}) is already in use. Stop whatever is listening there (\`lsof -i :${port}\` or \`ss -ltnp | grep ${port}\`), or set ${envVar} to another port.`,
    );
  }
}
