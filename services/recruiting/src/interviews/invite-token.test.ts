import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrateSchema, newKeyRingSetting, parseKeyRing, SecretBox, sql, type Kysely } from '@hireloop/platform';
import { ownKyselyDatabase } from '@hireloop/platform/own-database';
import { migrations } from '../../migrations/index.js';
import { SCHEMA, type RecruitingDB } from '../db.js';
import { InviteTokens, resealInviteTokens } from './invite-token.js';

/** A database of this test's own: a re-seal touches every row, so not the shared one. */
describe('invite tokens after an INVITE_TOKEN_KEYS rotation', () => {
  let db: Kysely<RecruitingDB>;
  let close: () => Promise<void>;
  before(async () => {
    ({ db, close } = await ownKyselyDatabase<RecruitingDB>('invite_reseal'));
    await migrateSchema(db, SCHEMA, migrations);
  });
  after(async () => {
    await close();
  });

  it('recruiting re-seals every token under the new key at start; the URLs stay the same and the old key can go', async () => {
    const k1 = newKeyRingSetting('aes256', 'k1');
    const k2 = newKeyRingSetting('aes256', 'k2');
    const tokensOf = (setting: string) => new InviteTokens(new SecretBox(parseKeyRing(setting, 'aes256')), 'https://hire.example');
    const before = tokensOf(k1);
    const issued = before.issue();
    await sql`insert into recruiting.candidates (id, organization_id, email, name) values ('cand_1', 'org_1', 'a@example.com', 'A')`.execute(db);
    await sql`insert into recruiting.positions (id, organization_id, title, employment_type, status, rubric_version, competencies, questions) values ('pos_1', 'org_1', 'T', 'full_time', 'open', 1, '[]', '[]')`.execute(db);
    await sql`insert into recruiting.interviews (id, organization_id, title, status, candidate_id, position_id, duration_minutes, invite_token_hash, invite_token_sealed, questions, expires_at)
              values ('int_1', 'org_1', 'T', 'scheduled', 'cand_1', 'pos_1', 30, ${issued.hash}, ${issued.sealed}, '[]', now() + interval '1 day')`.execute(db);

    const rotated = tokensOf(`${k2},${k1}`);
    assert.equal(await resealInviteTokens(db, rotated), 1);
    assert.equal(await resealInviteTokens(db, rotated), 0, 'nothing left on the old key');
    const row = await db.selectFrom('recruiting.interviews').select(['id', 'invite_token_sealed', 'invite_token_hash']).where('id', '=', 'int_1').executeTakeFirstOrThrow();
    assert.match(row.invite_token_sealed!, /^v2:k2:/);
    assert.equal(row.invite_token_hash, issued.hash, 'look-up unchanged');
    assert.equal(tokensOf(k2).urlFor(row), `https://hire.example/i/${issued.token}`, 'the new key alone shows the same URL');
  });
});
