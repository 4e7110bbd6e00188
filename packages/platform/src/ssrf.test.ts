import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isForbiddenAddress, resolveWebhookTarget } from './ssrf.js';
import { AppError } from './errors.js';

describe('SSRF guard', () => {
  it('forbids private, loopback, link-local, metadata, CGNAT, multicast and reserved addresses', () => {
    for (const a of ['10.1.2.3', '172.31.255.255', '192.168.0.1', '127.0.0.1', '127.8.8.8', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
      '::1', '::', 'fd12::1', 'fe80::1', 'ff02::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1', '::ffff:169.254.169.254']) {
      assert.equal(isForbiddenAddress(a, false), true, a);
    }
  });

  it('allows public addresses, and loopback only with the development flag', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '172.32.0.1']) assert.equal(isForbiddenAddress(a, false), false, a);
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) assert.equal(isForbiddenAddress(a, true), false, a);
    for (const a of ['10.0.0.1', '169.254.169.254']) assert.equal(isForbiddenAddress(a, true), true, `${a} stays forbidden with the flag`);
  });

  it('requires https except for loopback under the flag, and refuses credentials in the URL', async () => {
    await assert.rejects(resolveWebhookTarget('http://127.0.0.1:8080/x', false), AppError);
    assert.equal((await resolveWebhookTarget('http://127.0.0.1:8080/x', true)).address, '127.0.0.1');
    await assert.rejects(resolveWebhookTarget('https://u:p@93.184.216.34/x', false), /credentials/);
    await assert.rejects(resolveWebhookTarget('http://93.184.216.34/x', true), /https/);
    assert.equal((await resolveWebhookTarget('https://93.184.216.34/x', false)).address, '93.184.216.34');
  });
});
