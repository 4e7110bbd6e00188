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

  it('forbids the IANA special-purpose ranges: TEST-NETs, benchmarking, 240/4, Teredo, 6to4, documentation, NAT64 of a private address', () => {
    for (const a of [
      '192.0.2.10', '198.51.100.7', '203.0.113.200', // TEST-NET-1..3
      '198.18.0.1', '198.19.255.254', // benchmarking
      '100.127.255.255', '240.0.0.1', '239.255.255.250', '192.0.0.8', '192.88.99.1',
      '2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
      '2002:c000:0204::1', '2002:0a00:0001::1', // 6to4
      '2001:db8::1', '2001:db8:ffff::1', // documentation
      '64:ff9b::10.0.0.1', '64:ff9b::127.0.0.1', '64:ff9b::169.254.169.254', '64:ff9b:1::1', // NAT64 of non-public, local-use NAT64
      '::ffff:0:10.0.0.1', '::10.0.0.1', '::ffff:192.0.2.1', // translated, IPv4-compatible, mapped TEST-NET
      'fec0::1', '100::1', '2001:10::1', '2001:20::1', '3fff::1', '5f00::1', '4000::1', 'fe80::1%eth0',
    ]) {
      assert.equal(isForbiddenAddress(a, false), true, a);
    }
  });

  it('judges IPv4 inside NAT64 and mapped addresses as that IPv4 address', () => {
    for (const a of ['64:ff9b::8.8.8.8', '::ffff:8.8.8.8']) assert.equal(isForbiddenAddress(a, false), false, a);
    assert.equal(isForbiddenAddress('not-an-address', false), true);
  });

  it('allows public addresses, and loopback only with the development flag', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '2a00:1450:4001::200e', '172.32.0.1', '100.128.0.1', '198.20.0.1']) assert.equal(isForbiddenAddress(a, false), false, a);
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) assert.equal(isForbiddenAddress(a, true), false, a);
    for (const a of ['10.0.0.1', '169.254.169.254']) assert.equal(isForbiddenAddress(a, true), true, `${a} stays forbidden with the flag`);
  });

  it('requires https except for loopback under the flag, and refuses credentials in the URL', async () => {
    await assert.rejects(resolveWebhookTarget('http://127.0.0.1:8080/x', false), AppError);
    // A name's private address is not told (a DNS oracle for internal hosts).
    await assert.rejects(resolveWebhookTarget('https://localhost/x', false), (err: AppError) => /private, loopback or link-local/.test(err.message) && !/127\.0\.0\.1|::1/.test(JSON.stringify([err.message, err.details])));
    assert.equal((await resolveWebhookTarget('http://127.0.0.1:8080/x', true)).address, '127.0.0.1');
    await assert.rejects(resolveWebhookTarget('https://u:p@93.184.216.34/x', false), /credentials/);
    await assert.rejects(resolveWebhookTarget('http://93.184.216.34/x', true), /https/);
    assert.equal((await resolveWebhookTarget('https://93.184.216.34/x', false)).address, '93.184.216.34');
  });
});
