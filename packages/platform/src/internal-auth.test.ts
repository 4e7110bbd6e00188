import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InternalTokenVerifier, internalKey, signInternalToken } from './internal-auth.js';

describe('internal tokens', () => {
  const key = internalKey('k'.repeat(32));
  const auth = { sub: 'key_1', org: 'org_1', scopes: ['read' as const] };

  it('verify a token signed with the shared secret, also from the cache', async () => {
    const verifier = new InternalTokenVerifier(key);
    const token = await signInternalToken(key, auth);
    assert.deepEqual(await verifier.verify(token), auth);
    assert.deepEqual(await verifier.verify(token), auth);
  });

  it('refuse a missing, forged, tampered or expired token', async () => {
    const verifier = new InternalTokenVerifier(key);
    const forged = await signInternalToken(internalKey('x'.repeat(32)), auth);
    const good = await signInternalToken(key, auth);
    const [h, p, s] = good.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), org: 'org_2' })).toString('base64url')}.${s}`;
    const expired = await signInternalToken(key, auth, -10);
    for (const token of [undefined, '', 'garbage', forged, tampered, expired]) assert.equal(await verifier.verify(token), null, String(token));
  });
});
