import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { call, eventually, newOrganizationWithKey, startExtraGateway, startTestServer, testEnv } from '@hireloop/devstack/testing';

/** True when a new TCP connection to the port is refused (nothing listens there any more). */
function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('SIGTERM drains the gateway', () => {
  it('a request in flight completes, new connections are refused, and the process exits 0', async () => {
    // A second gateway whose identity calls wait at a loopback proxy until the test lets them go:
    // a slow request that is in flight for as long as the test wants.
    const identityUrl = testEnv().identityUrl;
    let held = 0;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const proxy = await startTestServer(async (req, body) => {
      held++;
      await released;
      const res = await fetch(`${identityUrl}${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, body: req.method === 'GET' ? undefined : body });
      return { status: res.status, body: await res.text() };
    });
    const gateway = await startExtraGateway({ IDENTITY_URL: proxy.url });
    try {
      const org = await newOrganizationWithKey(['read']);
      const slow = call('GET', '/api/v1/me', { key: org.key, baseUrl: gateway.url });
      assert.equal(await eventually(async () => held, (n) => n > 0, 30_000, 50), 1, 'the request reached identity and waits there');

      gateway.child.process.kill('SIGTERM');
      assert.equal(await eventually(() => refuses(gateway.port), (r) => r, 30_000, 50), true, 'new connections are refused while draining');
      assert.equal(gateway.child.process.exitCode, null, 'still running while a request is in flight');

      release();
      const res = await slow;
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.organization.id, org.organization.id);
      assert.equal(await gateway.child.exited, 0);
    } finally {
      release();
      await gateway.child.stop();
      await proxy.close();
    }
  });
});
