import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtectedHeader, SignJWT } from 'jose';
import { InternalTokenCache, InternalTokenVerifier, signInternalToken } from './internal-auth.js';
import { parseKeyRing } from './keys.js';

describe('internal tokens', () => {
  const keys = parseKeyRing(`k1:${'k'.repeat(32)}`, 'secret');
  const auth = { sub: 'key_1', org: 'org_1', scopes: ['read' as const] };

  it('verify a token signed with the shared key, also from the cache', async () => {
    const verifier = new InternalTokenVerifier(keys);
    const token = await signInternalToken(keys, auth);
    assert.equal(decodeProtectedHeader(token).kid, 'k1');
    assert.deepEqual(await verifier.verify(token), auth);
    assert.deepEqual(await verifier.verify(token), auth);
  });

  it('carry the caller\'s name when the gateway gives one, signed with the rest', async () => {
    const verifier = new InternalTokenVerifier(keys);
    const named = { ...auth, name: 'Rita Reviewer' };
    assert.deepEqual(await verifier.verify(await signInternalToken(keys, named)), named);
    // One cache: a token cached for one name is never handed out for another.
    const cache = new InternalTokenCache(keys);
    const token = await cache.tokenFor(named);
    assert.equal((await verifier.verify(token))?.name, 'Rita Reviewer');
    assert.notEqual(await cache.tokenFor(auth), token, 'another name is another token');
    assert.equal((await verifier.verify(await cache.tokenFor(auth)))?.name, undefined);
  });

  it('refuse a missing, forged, tampered or expired token', async () => {
    const verifier = new InternalTokenVerifier(keys);
    const forged = await signInternalToken(parseKeyRing(`k1:${'x'.repeat(32)}`, 'secret'), auth);
    const good = await signInternalToken(keys, auth);
    const [h, p, s] = good.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), org: 'org_2' })).toString('base64url')}.${s}`;
    const expired = await signInternalToken(keys, auth, -10);
    for (const token of [undefined, '', 'garbage', forged, tampered, expired]) assert.equal(await verifier.verify(token), null, String(token));
  });

  it('rotate with an overlap: the new key signs, both verify, and a dropped key no longer does', async () => {
    const old = parseKeyRing(`k1:${'k'.repeat(32)}`, 'secret');
    const both = parseKeyRing(`k2:${'n'.repeat(32)},k1:${'k'.repeat(32)}`, 'secret');
    const onlyNew = parseKeyRing(`k2:${'n'.repeat(32)}`, 'secret');
    const fromOld = await signInternalToken(old, auth);
    const fromNew = await signInternalToken(both, auth);
    assert.equal(decodeProtectedHeader(fromNew).kid, 'k2');
    assert.deepEqual(await new InternalTokenVerifier(both).verify(fromOld), auth);
    assert.deepEqual(await new InternalTokenVerifier(old).verify(fromNew), null, 'a process that has not the new key yet refuses it');
    assert.deepEqual(await new InternalTokenVerifier(onlyNew).verify(fromOld), null);
  });

  it('accept a token without a key id (signed before key ids) under any configured key', async () => {
    const both = parseKeyRing(`k2:${'n'.repeat(32)},k0:${'k'.repeat(32)}`, 'secret');
    const legacy = await new SignJWT({ org: auth.org, scopes: auth.scopes }).setProtectedHeader({ alg: 'HS256' }).setSubject(auth.sub)
      .setIssuer('hireloop').setAudience('hireloop-internal').setIssuedAt().setExpirationTime('60s').sign(Buffer.from('k'.repeat(32)));
    assert.deepEqual(await new InternalTokenVerifier(both).verify(legacy), auth);
  });
});
