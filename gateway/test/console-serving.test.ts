import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '@hireloop/devstack/testing';

// The gateway serves the console's build (apps/console/dist; the test runner builds it when stale).
describe('the console as the gateway serves it', () => {
  it('answers index.html for every console route, with the Temporal UI URL filled in and no caching of the page', async () => {
    for (const path of ['/console/', '/console/keys', '/console/webhooks/wh_123', '/console/login?next=%2Fkeys']) {
      const res = await call('GET', path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/, path);
      assert.equal(res.headers.get('cache-control'), 'no-cache', path);
      assert.match(res.text, /<div id="root"><\/div>/, path);
      assert.match(res.text, /<script type="module" crossorigin src="\/console\/assets\/[^"]+\.js">/, path);
      const meta = /<meta name="hireloop-temporal-ui" content="([^"]*)">/.exec(res.text);
      assert.equal(meta?.[1], process.env['TEMPORAL_UI_URL'], path);
    }
    assert.equal((await call('GET', '/console')).headers.get('location'), '/console/');
  });

  it('serves the hashed assets for good, and a missing file is a 404 page, not the app', async () => {
    const index = await call('GET', '/console/');
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(index.text)![1]!;
    const asset = await call('GET', script);
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get('content-type') ?? '', /javascript/);
    assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
    for (const path of ['/console/assets/nothing.js', '/console/app.js', '/console/keys/logo.png']) {
      const res = await call('GET', path);
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/, path);
      assert.doesNotMatch(res.text, /id="root"/, path);
    }
  });

  it('/favicon.ico is an icon', async () => {
    const res = await fetch(`${process.env['GATEWAY_URL']}/favicon.ico`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /icon/);
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 4)], [0, 0, 1, 0], 'an ICO header');
  });
});
