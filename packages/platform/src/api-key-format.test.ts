import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey, API_KEY_LENGTH } from './api-key-format.js';

describe('API key format (PRODUCT.md §2)', () => {
  it('is hl_ + 32 base62 characters + a 6-character base62 CRC-32 checksum', () => {
    const key = generateApiKey();
    assert.match(key, /^hl_[0-9A-Za-z]{38}$/);
    assert.equal(key.length, API_KEY_LENGTH);
    assert.ok(isWellFormedApiKey(key));
  });

  it('never repeats', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    assert.equal(keys.size, 1000);
  });

  it('rejects a key whose checksum does not match its random part', () => {
    const key = generateApiKey();
    const last = key.at(-1) === 'a' ? 'b' : 'a';
    assert.equal(isWellFormedApiKey(key.slice(0, -1) + last), false);
    const flipped = key.slice(0, 5) + (key[5] === 'x' ? 'y' : 'x') + key.slice(6);
    assert.equal(isWellFormedApiKey(flipped), false);
  });

  it('rejects wrong prefix, length and alphabet', () => {
    const key = generateApiKey();
    for (const bad of ['', 'hl_', key.replace('hl_', 'hk_'), key + 'a', key.slice(0, -1), key.replace(/.$/, '-'), `Bearer ${key}`]) {
      assert.equal(isWellFormedApiKey(bad), false, bad);
    }
  });

  it('stores SHA-256 hex of the whole key and shows the first 8 characters after hl_', () => {
    const key = generateApiKey();
    assert.match(hashApiKey(key), /^[0-9a-f]{64}$/);
    assert.equal(apiKeyDisplayPrefix(key), key.slice(0, 11));
  });
});
