import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createDb, createPool, sql } from './db.js';
import { EventInviteUrls, sealEventInviteUrls, sealInviteUrl } from './event-invite-urls.js';
import { newKeyRingSetting, parseKeyRing } from './keys.js';
import { outboxTableSql } from './outbox.js';
import { SecretBox } from './secret-box.js';

/**
 * Invite URLs in stored event payloads (PRODUCT.md §11: no token in clear at rest), against the
 * test stack's Postgres in a schema of its own: events are stored with the token sealed and shown
 * with the URL; the start-up pass seals rows from before and re-seals rows under an older key.
 */
const SCHEMA = `event_invite_urls_test_${process.pid}`;
const db = createDb<any>(createPool({ url: process.env['DATABASE_URL']!, applicationName: 'event-invite-urls-test', max: 2 }));
const outbox = sql.id(SCHEMA, 'outbox');
const BASE = 'https://hire.example';
const k1 = newKeyRingSetting('aes256', 'k1');
const k2 = newKeyRingSetting('aes256', 'k2');
const boxOf = (setting: string) => new SecretBox(parseKeyRing(setting, 'aes256'));

before(async () => {
  await sql`create schema ${sql.id(SCHEMA)}`.execute(db);
  await outboxTableSql(SCHEMA).execute(db);
});

after(async () => {
  await sql`drop schema ${sql.id(SCHEMA)} cascade`.execute(db);
  await db.destroy();
});

const insert = (id: string, data: unknown) =>
  sql`insert into ${outbox} (id, organization_id, type, payload, created_at)
      values (${id}, 'org_1', 'interview.scheduled', ${JSON.stringify({ id, type: 'interview.scheduled', createdAt: new Date().toISOString(), data })}::jsonb, now())`.execute(db);
const dataOf = async (id: string) =>
  (await sql<{ data: Record<string, unknown> }>`select payload->'data' as data from ${outbox} where id = ${id}`.execute(db)).rows[0]!.data;

describe('invite URLs in stored events', () => {
  it('stores the token sealed and renders the same URL back; other data passes through', () => {
    const box = boxOf(k1);
    const interview = { id: 'int_1', inviteUrl: `${BASE}/i/tok_ABC-def_123`, title: 'T' };
    const stored = sealInviteUrl(interview, box);
    assert.ok(!JSON.stringify(stored).includes('tok_ABC-def_123'), 'no token in clear');
    assert.match((stored.inviteUrl as unknown as { sealedInviteToken: string }).sealedInviteToken, /^v2:k1:/);
    assert.deepEqual(new EventInviteUrls(box, `${BASE}/`).render(stored), interview);
    const candidate = { id: 'cand_1', email: 'a@example.com' };
    assert.equal(sealInviteUrl(candidate, box), candidate);
    assert.equal(new EventInviteUrls(box, BASE).render(candidate), candidate);
  });

  it('at start, seals clear rows and re-seals rows under an older key, then finds nothing to do', async () => {
    await insert('evt_1_clear', { id: 'int_1', inviteUrl: `${BASE}/i/tokenOne` });
    await insert('evt_2_old_key', sealInviteUrl({ id: 'int_2', inviteUrl: `${BASE}/i/tokenTwo` }, boxOf(k1)));
    await insert('evt_3_candidate', { id: 'cand_1', email: 'a@example.com' });
    const rotated = boxOf(`${k2},${k1}`);

    assert.equal(await sealEventInviteUrls(db, { schema: SCHEMA, name: 'outbox' }, rotated), 2);
    assert.equal(await sealEventInviteUrls(db, { schema: SCHEMA, name: 'outbox' }, rotated), 0, 'nothing left in clear or on the old key');

    const dump = (await sql<{ t: string }>`select string_agg(payload::text, ' ') as t from ${outbox}`.execute(db)).rows[0]!.t;
    assert.ok(!dump.includes('tokenOne') && !dump.includes('tokenTwo'), 'no token in clear');
    const urls = new EventInviteUrls(boxOf(k2), BASE);
    for (const [id, token] of [['evt_1_clear', 'tokenOne'], ['evt_2_old_key', 'tokenTwo']] as const) {
      const data = await dataOf(id);
      assert.match((data['inviteUrl'] as { sealedInviteToken: string }).sealedInviteToken, /^v2:k2:/);
      assert.equal(urls.render(data)['inviteUrl'], `${BASE}/i/${token}`, 'the new key alone renders the same URL');
    }
    assert.deepEqual(await dataOf('evt_3_candidate'), { id: 'cand_1', email: 'a@example.com' });
  });
});
