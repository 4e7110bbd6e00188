import type { Kysely, SecretBox } from '@hireloop/platform';
import type { IntegrationsDB } from '../db.js';

/**
 * Start-up re-seal after a WEBHOOK_SECRET_KEYS rotation, like the invite tokens' (recruiting):
 * every endpoint's signing secret — and the previous one still signing through a rotation's
 * overlap — sealed under an older key (or before key ids) is sealed again under the current key,
 * so the old key can be dropped once every integrations instance has started with the new key
 * first (docs/operations.md). When there is nothing to do it is one query that finds no row.
 * A row changed meanwhile (a secret rotation) is left to that change.
 */
export async function resealWebhookSecrets(db: Kysely<IntegrationsDB>, box: SecretBox): Promise<number> {
  const stale = `${box.currentPrefix}%`;
  let resealed = 0;
  let after = '';
  for (;;) {
    const rows = await db.selectFrom('integrations.webhooks').select(['id', 'secret_sealed', 'previous_secret_sealed'])
      .where('id', '>', after)
      .where((eb) => eb.or([eb('secret_sealed', 'not like', stale), eb.and([eb('previous_secret_sealed', 'is not', null), eb('previous_secret_sealed', 'not like', stale)])]))
      .orderBy('id').limit(500).execute();
    if (rows.length === 0) return resealed;
    for (const row of rows) {
      const again = (sealed: string) => (box.isCurrent(sealed) ? sealed : box.seal(box.open(sealed)));
      const result = await db.updateTable('integrations.webhooks')
        .set({ secret_sealed: again(row.secret_sealed), previous_secret_sealed: row.previous_secret_sealed === null ? null : again(row.previous_secret_sealed) })
        .where('id', '=', row.id).where('secret_sealed', '=', row.secret_sealed)
        .where((eb) => (row.previous_secret_sealed === null ? eb('previous_secret_sealed', 'is', null) : eb('previous_secret_sealed', '=', row.previous_secret_sealed)))
        .executeTakeFirst();
      if (result.numUpdatedRows > 0n) resealed++;
    }
    after = rows[rows.length - 1]!.id;
  }
}
