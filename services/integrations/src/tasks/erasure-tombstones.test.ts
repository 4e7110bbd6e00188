import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrateSchema, sql, type Kysely } from '@hireloop/platform';
import { ownKyselyDatabase, untilALockWaits } from '@hireloop/platform/own-database';
import { migrations } from '../../migrations/index.js';
import { SCHEMA, type IntegrationsDB } from '../db.js';
import { ingestEvents } from '../deliveries/fan-out.js';
import { redactIngestedEvents } from './erasure-tombstones.js';
import { scrubErasedPerson } from './erasure.js';

/**
 * The erasure lock's promise, with the two sides interleaved by hand: an ingest that holds its
 * side when the erasure begins commits first, and the scrub that follows redacts what it stored.
 * A database of this test's own: the ingest is held open with the organization's lock.
 */
describe('an ingest that holds the erasure lock when an erasure begins', () => {
  let db: Kysely<IntegrationsDB>;
  let close: () => Promise<void>;
  before(async () => {
    ({ db, close } = await ownKyselyDatabase<IntegrationsDB>('erasure_tombstones', 3));
    await migrateSchema(db, SCHEMA, migrations);
  });
  after(async () => {
    await close();
  });

  it('commits before the tombstones, and the scrub redacts the event it stored', async () => {
    const organizationId = 'org_tombstones1';
    const candidateId = 'cand_tombstones1';
    const event = {
      id: 'evt_tombstones1', type: 'interview.completed', createdAt: new Date().toISOString(), organizationId,
      data: { id: 'int_tombstones1', candidate: { id: candidateId, name: 'Ann Example' } },
    };
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // The ingest's transaction (ingest.ts): the event kept, then its side of the lock and the
    // tombstone check (none yet), then held open until the erasure waits.
    const ingest = db.transaction().execute(async (trx) => {
      await ingestEvents(trx, { taskQueue: 'hireloop', breakerFailures: 5, leaseMs: 30_000 }, [event]);
      await redactIngestedEvents(trx, [event]);
      held();
      await released;
    });
    await holding;
    const scrub = scrubErasedPerson(db, organizationId, candidateId, [candidateId]);
    try {
      await untilALockWaits(db, 'the erasure waits for the ingest that holds the lock', 'advisory');
      assert.equal(Number((await db.selectFrom('integrations.erased_ids').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n), 0, 'no tombstone before the ingest commits');
    } finally {
      release();
      await ingest;
    }
    const scrubbed = await scrub;
    assert.equal(scrubbed.events, 1);
    const stored = (await db.selectFrom('integrations.events').select('payload').where('id', '=', event.id).executeTakeFirstOrThrow()).payload as { data: unknown };
    assert.deepEqual(stored.data, { id: 'int_tombstones1', candidate: { id: candidateId }, redacted: true });
  });
});
