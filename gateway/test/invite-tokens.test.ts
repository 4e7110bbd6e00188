import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import pg from 'pg';
import { call, newOrganizationWithKey, startExtraProcess, testEnv } from '@hireloop/devstack/testing';
import { newPosition, schedule, tokenOf } from './interview-helpers.js';

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/** The token the recruiting service derived before tokens were random: HMAC of the id under HKDF(INTERNAL_AUTH_SECRET). */
function derivedToken(secret: string, interviewId: string): string {
  const key = Buffer.from(hkdfSync('sha256', secret, 'hireloop', 'interview-invite-token', 32));
  return createHmac('sha256', key).update(interviewId).digest('base64url');
}

describe('invite tokens (PRODUCT.md §11)', () => {
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  let positionId: string;
  let db: pg.Client;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write']);
    positionId = (await newPosition(org.key)).id;
    db = new pg.Client({ connectionString: testEnv().databaseUrl });
    await db.connect();
  });
  after(() => db.end());

  it('are random per interview, stored only as a SHA-256 hash and sealed, and shown again in inviteUrl', async () => {
    const a = await schedule(org.key, positionId);
    const b = await schedule(org.key, positionId);
    const [ta, tb] = [tokenOf(a.inviteUrl), tokenOf(b.inviteUrl)];
    assert.notEqual(ta, tb);
    assert.equal(Buffer.from(ta, 'base64url').length, 32, '256 bits');
    const row = (await db.query('select invite_token_hash, invite_token_sealed from recruiting.interviews where id = $1', [a.id])).rows[0];
    assert.equal(row.invite_token_hash, sha256(ta));
    assert.match(row.invite_token_sealed, /^v2:[A-Za-z0-9_-]+:/);
    assert.ok(!row.invite_token_sealed.includes(ta));
    const again = await call('GET', `/api/v1/interviews/${a.id}`, { key: org.key });
    assert.equal(again.body.data.inviteUrl, a.inviteUrl);
    assert.equal((await fetch(a.inviteUrl)).status, 200);
  });

  it('an interview created with the old derived token keeps its URL: the start-up backfill seals it', async () => {
    const created = await schedule(org.key, positionId);
    // Turn the row into what the old code wrote: the hash of the derived token, nothing sealed.
    const legacySecret = randomBytes(32).toString('base64url');
    const oldToken = derivedToken(legacySecret, created.id);
    await db.query('update recruiting.interviews set invite_token_hash = $2, invite_token_sealed = null where id = $1', [created.id, sha256(oldToken)]);

    // A recruiting service that has the old secret seals it when it starts.
    const service = await startExtraProcess('services/recruiting/src/index.ts', 'RECRUITING_PORT', { INTERNAL_AUTH_SECRET: legacySecret, TEMPORAL_TASK_QUEUE: `invite-backfill-${process.pid}` });
    try {
      const row = (await db.query('select invite_token_sealed from recruiting.interviews where id = $1', [created.id])).rows[0];
      assert.match(row.invite_token_sealed ?? '', /^v2:/, 'sealed at start');
      const shown = await call('GET', `/api/v1/interviews/${created.id}`, { key: org.key });
      assert.equal(shown.status, 200, shown.text);
      assert.equal(tokenOf(shown.body.data.inviteUrl), oldToken, 'the old URL is shown again');
      const page = await fetch(`${testEnv().gatewayUrl}/i/${oldToken}`);
      assert.equal(page.status, 200, 'the old URL still opens');
      assert.match(await page.text(), /Backend Engineer/);
    } finally {
      await service.child.stop();
    }
  });
});
