import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { canonicalFilterValue, CursorCodec, toPage } from './cursor.js';
import { AppError } from './errors.js';
import { parseKeyRing } from './keys.js';

describe('keyset cursors', () => {
  const ring = (setting: string) => parseKeyRing(setting, 'secret');
  const codec = new CursorCodec(ring(`c1:${'x'.repeat(32)}`));
  const at = { createdAt: new Date('2026-01-02T03:04:05.678Z'), id: 'int_abc' };

  const ctx = (filters: Record<string, unknown> = {}, list = 'interviews', organizationId = 'org_a') => ({ list, organizationId, filters });

  it('round-trips a position for the same list, organization and filters', () => {
    assert.deepEqual(codec.decode(codec.encode(at, ctx({ status: 'scheduled' })), ctx({ status: 'scheduled' })), at);
  });

  it('refuses a cursor of another list or another organization', () => {
    const cursor = codec.encode(at, ctx());
    assert.throws(() => codec.decode(cursor, ctx({}, 'candidates')), AppError);
    assert.throws(() => codec.decode(cursor, ctx({}, 'interviews', 'org_b')), AppError);
  });

  it('refuses a tampered cursor with validation_failed', () => {
    const cursor = codec.encode(at, ctx());
    const [payload, kid, sig] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify(['2030-01-01T00:00:00.000Z', 'int_zzz', 'x'])).toString('base64url');
    for (const bad of [`${forged}.${kid}.${sig}`, `${payload}.${kid}.${sig!.slice(0, -1)}A`, `${payload}.c9.${sig}`, 'garbage', `${payload}`, `${payload}.${kid}`, 'a.b.c.d']) {
      assert.throws(() => codec.decode(bad, ctx()), (e: unknown) => e instanceof AppError && e.code === 'validation_failed');
    }
  });

  it('refuses a cursor used with other filters', () => {
    const cursor = codec.encode(at, ctx({ status: 'scheduled' }));
    assert.throws(() => codec.decode(cursor, ctx({ status: 'completed' })), /filters differ/);
  });

  it('takes an instant filter written another way as the same filter: equal means the same instant', () => {
    const cursor = codec.encode(at, ctx({ createdAfter: '2026-11-30T05:00:00Z', status: 'scheduled' }));
    for (const same of ['2026-11-30T05:00:00.000Z', '2026-11-30T06:00:00+01:00', '2026-11-30T00:30:00.000000-04:30']) {
      assert.deepEqual(codec.decode(cursor, ctx({ createdAfter: same, status: 'scheduled' })), at, same);
    }
    for (const other of ['2026-11-30T05:00:00.001Z', '2026-11-30T05:00:00+01:00', '2026-11-30T05:00:00.000001Z']) {
      assert.throws(() => codec.decode(cursor, ctx({ createdAfter: other, status: 'scheduled' })), /filters differ/, other);
    }
    assert.equal(canonicalFilterValue('2026-11-30T06:00:00.1234500+01:00'), '2026-11-30T05:00:00.12345Z', 'microseconds and beyond are kept');
    assert.equal(canonicalFilterValue('2026-11-30T05:00:00.500Z'), '2026-11-30T05:00:00.5Z');
    assert.equal(canonicalFilterValue('ext-2026-11-30T05:00:00Z'), 'ext-2026-11-30T05:00:00Z', 'anything else is itself');
  });

  it('still reads a cursor made before instants had one spelling (its fingerprint is of the value as given)', () => {
    const legacyPrint = (filters: Record<string, unknown>) => {
      // The old fingerprint: the filters as given.
      const text = JSON.stringify(['interviews', 'org_a', Object.keys(filters).sort().map((k) => [k, filters[k] ?? null])]);
      return createHash('sha256').update(text).digest('base64url').slice(0, 16);
    };
    const filters = { createdAfter: '2026-11-30T06:00:00+01:00' };
    const payload = Buffer.from(JSON.stringify([at.createdAt.toISOString(), at.id, legacyPrint(filters)])).toString('base64url');
    const signature = createHmac('sha256', 'x'.repeat(32)).update(payload).digest('base64url').slice(0, 22);
    assert.deepEqual(codec.decode(`${payload}.c1.${signature}`, ctx(filters)), at);
  });

  it('refuses a cursor signed with another secret', () => {
    const other = new CursorCodec(ring(`c1:${'y'.repeat(32)}`));
    assert.throws(() => codec.decode(other.encode(at, ctx()), ctx()), AppError);
  });

  it('keeps cursors of the previous key valid while it is listed, and reads cursors made before key ids', () => {
    const rotated = new CursorCodec(ring(`c2:${'z'.repeat(32)},c1:${'x'.repeat(32)}`));
    const old = codec.encode(at, ctx());
    assert.deepEqual(rotated.decode(old, ctx()), at);
    assert.equal(rotated.encode(at, ctx()).split('.')[1], 'c2');
    assert.throws(() => new CursorCodec(ring(`c2:${'z'.repeat(32)}`)).decode(old, ctx()), AppError);
    const [payload, , signature] = old.split('.');
    assert.deepEqual(rotated.decode(`${payload}.${signature}`, ctx()), at, 'a cursor without a key id is checked against every key');
  });

  it('gives a next cursor only when there is a next page', () => {
    const rows = [3, 2, 1].map((n) => ({ id: `x_${n}`, created_at: new Date(n * 1000) }));
    const first = toPage(rows, 2, codec, ctx());
    assert.equal(first.items.length, 2);
    assert.deepEqual(codec.decode(first.nextCursor!, ctx()), { createdAt: new Date(2000), id: 'x_2' });
    assert.equal(toPage(rows, 3, codec, ctx()).nextCursor, null);
  });
});
