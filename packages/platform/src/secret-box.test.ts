import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
import { newKeyRingSetting, parseKeyRing, withLegacyKeys } from './keys.js';
import { SecretBox } from './secret-box.js';

describe('sealed values and key rings', () => {
  const k1 = newKeyRingSetting('aes256', 'k1');
  const k2 = newKeyRingSetting('aes256', 'k2');

  it('seal under the current key with its id, and open while that key is listed', () => {
    const before = new SecretBox(parseKeyRing(k1, 'aes256'));
    const sealed = before.seal('whsec_abc');
    assert.match(sealed, /^v2:k1:/);
    assert.doesNotMatch(sealed, /whsec_abc/);
    const rotated = new SecretBox(parseKeyRing(`${k2},${k1}`, 'aes256'));
    assert.equal(rotated.open(sealed), 'whsec_abc');
    assert.match(rotated.seal('x'), /^v2:k2:/);
    assert.throws(() => new SecretBox(parseKeyRing(k2, 'aes256')).open(sealed), /k1/);
  });

  it('open values sealed before key ids (v1) with whichever key authenticates them, and refuse tampering', () => {
    const legacyKey = randomBytes(32);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', legacyKey, iv);
    const ct = Buffer.concat([cipher.update('old secret', 'utf8'), cipher.final()]);
    const v1 = ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), ct.toString('base64')].join(':');
    const box = new SecretBox(parseKeyRing(`${k2},k0:${legacyKey.toString('base64')}`, 'aes256'));
    assert.equal(box.open(v1), 'old secret');
    const sealed = box.seal('value');
    const parts = sealed.split(':');
    parts[4] = Buffer.from('tampered').toString('base64');
    assert.throws(() => box.open(parts.join(':')));
    assert.throws(() => box.open('plain text'), /not a sealed value/);
  });

  it('parse key settings strictly, without echoing key material', () => {
    for (const bad of ['', 'nokey', ':abc', `k1:${'a'.repeat(31)}`, `bad id:${'a'.repeat(32)}`, `k1:${'a'.repeat(32)},k1:${'b'.repeat(32)}`]) {
      assert.throws(() => parseKeyRing(bad, 'secret'), (e: Error) => !e.message.includes('aaaa'), bad);
    }
    assert.throws(() => parseKeyRing('k1:c2hvcnQ=', 'aes256'), /32 bytes/);
    assert.deepEqual(parseKeyRing(`b:${'b'.repeat(32)}, a:${'a'.repeat(32)}`, 'secret').keys.map((k) => k.id), ['b', 'a']);
  });

  it('give a stack configured before key ids one k0 key per purpose, the newer ones derived and distinct', () => {
    const env = withLegacyKeys({ INTERNAL_AUTH_SECRET: 's'.repeat(40), WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') });
    assert.equal(env['INTERNAL_TOKEN_KEYS'], `k0:${'s'.repeat(40)}`);
    assert.equal(env['CURSOR_KEYS'], `k0:${'s'.repeat(40)}`);
    assert.match(env['WEBHOOK_SECRET_KEYS']!, /^k0:/);
    assert.notEqual(env['STORED_RESPONSE_KEYS'], env['INVITE_TOKEN_KEYS']);
    for (const name of ['STORED_RESPONSE_KEYS', 'INVITE_TOKEN_KEYS', 'WEBHOOK_SECRET_KEYS']) parseKeyRing(env[name]!, 'aes256');
    assert.equal(withLegacyKeys({ INTERNAL_AUTH_SECRET: 's'.repeat(40), CURSOR_KEYS: 'set' })['CURSOR_KEYS'], 'set', 'a new setting wins');
    assert.equal(withLegacyKeys({ INTERNAL_AUTH_SECRET: 's'.repeat(40), CURSOR_KEYS: '' })['CURSOR_KEYS'], `k0:${'s'.repeat(40)}`, 'an empty setting is unset');
  });
});
