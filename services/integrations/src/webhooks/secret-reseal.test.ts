import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrateSchema, newKeyRingSetting, parseKeyRing, SecretBox, type Kysely } from '@hireloop/platform';
import { ownKyselyDatabase } from '@hireloop/platform/own-database';
import { migrations } from '../../migrations/index.js';
import { SCHEMA, type IntegrationsDB } from '../db.js';
import { resealWebhookSecrets } from './secret-reseal.js';

/**
 * A database of this test's own: a re-seal touches every endpoint, and the shared stack's running
 * integrations does not have this test's keys.
 */
describe('webhook secrets after a WEBHOOK_SECRET_KEYS rotation', () => {
  let db: Kysely<IntegrationsDB>;
  let close: () => Promise<void>;
  before(async () => {
    ({ db, close } = await ownKyselyDatabase<IntegrationsDB>('webhook_reseal'));
    await migrateSchema(db, SCHEMA, migrations);
  });
  after(async () => {
    await close();
  });

  it('integrations re-seals every secret (and the previous one in its overlap) under the new key at start; the old key can go', async () => {
    const k1 = newKeyRingSetting('aes256', 'k1');
    const k2 = newKeyRingSetting('aes256', 'k2');
    const boxOf = (setting: string) => new SecretBox(parseKeyRing(setting, 'aes256'));
    const old = boxOf(k1);
    const endpoint = (id: string, secret: string, previous: string | null) => ({
      id, organization_id: 'org_1', url: 'https://hooks.example/in', events: ['*'], status: 'enabled' as const,
      secret_sealed: old.seal(secret), previous_secret_sealed: previous && old.seal(previous), previous_secret_until: previous ? new Date(Date.now() + 3600_000) : null,
    });
    await db.insertInto('integrations.webhooks').values([endpoint('wh_1', 'whsec_one', null), endpoint('wh_2', 'whsec_two', 'whsec_two_before')]).execute();

    const rotated = boxOf(`${k2},${k1}`);
    assert.equal(await resealWebhookSecrets(db, rotated), 2);
    assert.equal(await resealWebhookSecrets(db, rotated), 0, 'nothing left on the old key');

    const newOnly = boxOf(k2);
    const rows = await db.selectFrom('integrations.webhooks').select(['id', 'secret_sealed', 'previous_secret_sealed']).orderBy('id').execute();
    assert.deepEqual(rows.map((r) => [r.id, newOnly.open(r.secret_sealed), r.previous_secret_sealed && newOnly.open(r.previous_secret_sealed)]), [
      ['wh_1', 'whsec_one', null],
      ['wh_2', 'whsec_two', 'whsec_two_before'],
    ]);
    for (const r of rows) assert.match(r.secret_sealed, /^v2:k2:/);
  });
});
