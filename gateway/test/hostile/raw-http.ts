import { connect } from 'node:net';
import { testEnv } from '@hireloop/devstack/testing';

export interface RawResponse {
  status: number;
  /** Header names lower-cased; a repeated header keeps its last value. */
  headers: Map<string, string>;
  text: string;
  body: unknown;
}

/** A chunked body, decoded. */
function unchunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
    if (!size) break;
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/**
 * One request written to the gateway byte for byte, as fetch never sends it: a path with dot
 * segments or backslashes left as they are, a header given twice, a request line of any length.
 * `Connection: close` is added; the answer is read until the server closes.
 */
export function rawRequest(method: string, path: string, headers: [string, string][] = [], body?: Buffer): Promise<RawResponse> {
  const { hostname, port } = new URL(testEnv().gatewayUrl);
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, ...headers.map(([n, v]) => `${n}: ${v}`), 'Connection: close'];
  if (body) lines.push(`Content-Length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      const [statusLine = '', ...headerLines] = all.subarray(0, split < 0 ? all.length : split).toString('latin1').split('\r\n');
      const parsed = new Map(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as [string, string]));
      let raw: Buffer = split < 0 ? Buffer.alloc(0) : all.subarray(split + 4);
      if (parsed.get('transfer-encoding') === 'chunked') raw = unchunk(raw);
      const text = raw.toString('utf8');
      let json: unknown = text;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        /* HTML or empty: the caller checks */
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers: parsed, text, body: json });
    });
    socket.write(body ? Buffer.concat([head, body]) : head);
  });
}
