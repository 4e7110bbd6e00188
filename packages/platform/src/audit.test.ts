import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { clientIpPrefix } from './audit.js';

// PRODUCT.md §7 Audit event: `ip` is the client's IPv4 /24 or IPv6 /48 prefix, never the address.
describe('clientIpPrefix', () => {
  it('cuts IPv4 to its /24 and IPv6 to its /48, an IPv4-mapped IPv6 address as IPv4', () => {
    assert.equal(clientIpPrefix('203.0.113.77'), '203.0.113.0/24');
    assert.equal(clientIpPrefix('2001:db8:1234:5678:9abc::1'), '2001:db8:1234::/48');
    assert.equal(clientIpPrefix('2001:0db8:0000:ffff::1'), '2001:db8::/48');
    assert.equal(clientIpPrefix('::ffff:198.51.100.9'), '198.51.100.0/24');
    assert.equal(clientIpPrefix('::1'), '::/48');
  });

  it('keeps nothing of what is not an address', () => {
    for (const value of [undefined, null, '', 'unknown', '203.0.113.1, 10.0.0.1', '2001:db8::g']) assert.equal(clientIpPrefix(value), null, String(value));
  });
});
