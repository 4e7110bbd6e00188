import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerParserErrors } from './parser-errors.js';

/** A request Node's parser refuses (both Content-Length and Transfer-Encoding), sent raw; the answer's head. */
async function refusedHead(publicBaseUrl: string): Promise<string> {
  const server = createServer((_req, res) => res.end('routed'));
  answerParserErrors(server, publicBaseUrl);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.write('POST /api/v1/candidates HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc');
    await new Promise((resolve) => socket.on('close', resolve));
    return Buffer.concat(chunks).toString('latin1').split('\r\n\r\n')[0]!;
  } finally {
    server.close();
  }
}

describe('answers of the HTTP parser (parser-errors.ts)', () => {
  it('carry HSTS when the public origin is https, as every routed response does', async () => {
    const head = await refusedHead('https://api.example.com');
    assert.match(head, /^HTTP\/1\.1 400 /);
    assert.match(head, /\r\nStrict-Transport-Security: max-age=31536000; includeSubDomains(\r\n|$)/);
    assert.match(head, /\r\nX-Content-Type-Options: nosniff\r\n/);
  });

  it('carry no HSTS over http (a browser ignores it there, and on localhost it would pin every port)', async () => {
    const head = await refusedHead('http://localhost:3000');
    assert.match(head, /^HTTP\/1\.1 400 /);
    assert.doesNotMatch(head, /Strict-Transport-Security/i);
  });
});
