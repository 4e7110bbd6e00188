import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from './ids.js';

describe('prefixed ids', () => {
  it('carry the prefix and sort by creation time', () => {
    const a = newId('cand', 1_700_000_000_000);
    const b = newId('cand', 1_700_000_000_001);
    assert.match(a, /^cand_[0-9A-Za-z]{23}$/);
    assert.ok(a < b);
  });
});
