import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { Client, Connection } from '@temporalio/client';
import { call, eventually, newOrganizationWithKey, testEnv } from '@hireloop/devstack/testing';
import { startReceiver } from './webhook-receiver.js';
import { answerTurn, newPosition, openInvite, schedule, startInvite, submitInvite, tokenOf } from './interview-helpers.js';

/**
 * The retention purges, end to end: aged rows are written straight into each service's tables,
 * the service's Temporal schedule is triggered, and the purge it runs (each owning service, as its
 * own role) deletes exactly the old (relayed, expired) rows and keeps the rest. The stack runs the
 * defaults: outbox rows 24 h, delivery attempts and inbound ATS events 30 days.
 */
describe('retention purges', () => {
  let connection: Connection;
  let temporal: Client;
  let db: pg.Client;
  const tag = `ret${process.pid}_${Date.now()}`;
  before(async () => {
    connection = await Connection.connect({ address: testEnv().temporalAddress });
    temporal = new Client({ connection });
    db = new pg.Client({ connectionString: testEnv().databaseUrl });
    await db.connect();
  });
  after(async () => {
    await db.end();
    await connection.close();
  });

  const present = async (table: string, key: string, ids: string[]) =>
    (await db.query<{ id: string }>(`select ${key} as id from ${table} where ${key} = any($1) order by 1`, [ids])).rows.map((r) => r.id);

  /** Triggers a schedule (created in the background by its service at start) and waits for its run to finish. */
  async function runSchedule(scheduleId: string) {
    const handle = temporal.schedule.getHandle(scheduleId);
    const before = await eventually(() => handle.describe().catch(() => null), (d) => d !== null);
    const runs = before!.info.recentActions.length;
    await handle.trigger();
    const after = await eventually(() => handle.describe(), (d) => d.info.recentActions.length > runs);
    const run = after.info.recentActions.at(-1)!.action;
    await temporal.workflow.getHandle(run.workflow.workflowId, run.workflow.firstExecutionRunId).result();
  }

  /**
   * Old relayed, recent relayed and old pending rows in one schema's two outboxes. The pending
   * rows are leased far ahead, so no relay picks them up while the test runs.
   */
  async function seedOutboxes(schema: string) {
    const ids = { old: `evt_${tag}_old`, recent: `evt_${tag}_recent`, pending: `evt_${tag}_pending` };
    await db.query(
      `insert into ${schema}.outbox (id, organization_id, type, payload, created_at, published_at, lease_until) values
         ($1, 'org_${tag}', 'candidate.created', '{}', now() - interval '3 days', now() - interval '25 hours', null),
         ($2, 'org_${tag}', 'candidate.created', '{}', now() - interval '3 days', now() - interval '23 hours', null),
         ($3, 'org_${tag}', 'candidate.created', '{}', now() - interval '3 days', null, now() + interval '1 day')`,
      [ids.old, ids.recent, ids.pending],
    );
    const wf = { old: `wf_${tag}_old`, recent: `wf_${tag}_recent`, pending: `wf_${tag}_pending` };
    await db.query(
      `insert into ${schema}.workflow_outbox (workflow_id, workflow_type, args, organization_id, kind, task_queue, created_at, started_at, lease_until) values
         ($1, 'ping', '[]', 'org_${tag}', 'test', 'retention-test', now() - interval '3 days', now() - interval '25 hours', null),
         ($2, 'ping', '[]', 'org_${tag}', 'test', 'retention-test', now() - interval '3 days', now() - interval '23 hours', null),
         ($3, 'ping', '[]', 'org_${tag}', 'test', 'retention-test', now() - interval '3 days', null, now() + interval '1 day')`,
      [wf.old, wf.recent, wf.pending],
    );
    return { events: ids, workflows: wf };
  }

  async function assertOutboxesPurged(schema: string, seeded: Awaited<ReturnType<typeof seedOutboxes>>) {
    const { events, workflows } = seeded;
    assert.deepEqual(await present(`${schema}.outbox`, 'id', Object.values(events)), [events.pending, events.recent].sort());
    assert.deepEqual(await present(`${schema}.workflow_outbox`, 'workflow_id', Object.values(workflows)), [workflows.pending, workflows.recent].sort());
    await db.query(`delete from ${schema}.outbox where id = $1`, [events.pending]);
    await db.query(`delete from ${schema}.workflow_outbox where workflow_id = $1`, [workflows.pending]);
  }

  it('recruiting: relayed outbox rows past OUTBOX_RETENTION_HOURS go, recent and pending rows stay; so do recorded Idempotency-Keys past IDEMPOTENCY_RETENTION_HOURS', async () => {
    const seeded = await seedOutboxes('recruiting');
    const scopes = { old: `${tag}_old`, recent: `${tag}_recent` };
    await db.query(
      `insert into recruiting.idempotency_records (scope, resource_id, created_at) values
         ($1, 'cand_x', now() - interval '25 hours'), ($2, 'cand_y', now() - interval '23 hours')`,
      [scopes.old, scopes.recent],
    );
    await runSchedule('purge-recruiting');
    await assertOutboxesPurged('recruiting', seeded);
    assert.deepEqual(await present('recruiting.idempotency_records', 'scope', Object.values(scopes)), [scopes.recent]);
  });

  it('recruiting: answers and evaluation text past RETENTION_ANSWERS_DAYS (365) are scrubbed; scores stay, and recent interviews keep theirs', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const position = await newPosition(org.key);
    const completed = async () => {
      const i = await schedule(org.key, position.id);
      await startInvite(tokenOf(i.inviteUrl));
      await submitInvite(tokenOf(i.inviteUrl), [`An answer kept for a while ${tag}`, `Another answer ${tag}`]);
      await eventually(async () => (await call('GET', `/api/v1/interviews/${i.id}/evaluation`, { key: org.key })).body.data?.status, (s) => s === 'completed', 60_000);
      return i.id;
    };
    const old = await completed();
    const recent = await completed();
    const evaluation = async (id: string) => (await call('GET', `/api/v1/interviews/${id}/evaluation`, { key: org.key })).body.data;
    const before = await evaluation(old);
    await db.query(`update recruiting.interviews set completed_at = now() - interval '366 days' where id = $1`, [old]);
    await runSchedule('purge-recruiting');
    const scrubbed = await evaluation(old);
    assert.equal(scrubbed.status, 'completed');
    assert.equal(scrubbed.overallScore, before.overallScore, 'the score stays');
    assert.deepEqual([scrubbed.answers, scrubbed.summary, scrubbed.strengths, scrubbed.concerns], [[], null, [], []]);
    // The reason for a missing score is ours (weights, not words): it stays with the score (PRODUCT.md §12).
    assert.equal(scrubbed.overallScoreReason, before.overallScoreReason);
    assert.ok(scrubbed.competencies.every((c: { rationale: string; score: number }) => c.rationale === '' && c.score >= 1));
    assert.deepEqual(scrubbed.competencyScores.map((c: { score: number | null }) => c.score), before.competencyScores.map((c: { score: number | null }) => c.score), 'the competency scores stay');
    assert.ok(scrubbed.competencyScores.every((c: { rationale: string; evidence: unknown[] }) => c.rationale === '' && c.evidence.length === 0), 'their rationales and quotes go');
    assert.deepEqual((await call('GET', `/api/v1/interviews/${old}/transcript`, { key: org.key })).body.data.turns, [], 'the transcript goes');
    const rerun = await call('POST', `/api/v1/interviews/${old}/evaluation/rerun`, { key: org.key, body: {} });
    assert.equal(rerun.status, 409, rerun.text);
    assert.equal(rerun.body.error.code, 'conflict', 'nothing is left to evaluate again');
    const kept = await evaluation(recent);
    assert.equal(kept.answers.length, 2);
    assert.ok(kept.summary);
    // Two scripted questions, each answered thinly and then followed up: eight turns.
    assert.equal((await call('GET', `/api/v1/interviews/${recent}/transcript`, { key: org.key })).body.data.turns.length, 8);
  });

  it('recruiting: the turns of an interview never completed go RETENTION_ANSWERS_DAYS after it could last be answered (expiresAt plus its budget)', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const position = await newPosition(org.key);
    const halfway = async () => {
      const i = await schedule(org.key, position.id);
      const token = tokenOf(i.inviteUrl);
      await startInvite(token);
      const turn = (await openInvite(token)).turn!;
      assert.equal((await answerTurn(token, turn.id, `Half an interview ${tag}`)).status, 303);
      return i.id;
    };
    const [old, recent] = [await halfway(), await halfway()];
    const turnsOf = async (id: string) => Number((await db.query(`select count(*) from recruiting.interview_turns where interview_id = $1`, [id])).rows[0].count);
    assert.ok((await turnsOf(old)) > 0);
    // Expired mid-conversation: the old one 366 days after it could last be answered, the recent one just now.
    await db.query(`update recruiting.interviews set expires_at = now() - interval '366 days' - make_interval(mins => duration_minutes) where id = $1`, [old]);
    await db.query(`update recruiting.interviews set expires_at = now() - interval '1 day' - make_interval(mins => duration_minutes) where id = $1`, [recent]);
    await runSchedule('purge-recruiting');
    assert.equal(await turnsOf(old), 0, 'the old transcript goes');
    assert.ok((await turnsOf(recent)) > 0, 'the recent one stays');
    assert.equal((await call('GET', `/api/v1/interviews/${old}`, { key: org.key })).body.data.status, 'expired', 'the interview itself stays');
  });

  it('integrations: relayed outbox rows past 24 h, delivery attempts, inbound ATS events and erased people\'s tombstones past 30 days and recorded Idempotency-Keys past IDEMPOTENCY_RETENTION_HOURS go, the rest stays', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const receiver = await startReceiver();
    try {
      const hook = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url: receiver.url, events: ['candidate.created'] } });
      assert.equal(hook.status, 201, hook.text);
      const attempts = { old: `att_${tag}_old`, recent: `att_${tag}_recent` };
      await db.query(
        `insert into integrations.delivery_attempts (id, organization_id, webhook_id, event_id, event_type, attempt, latency_ms, created_at) values
           ($1, $3, $4, 'evt_x', 'candidate.created', 1, 5, now() - interval '31 days'),
           ($2, $3, $4, 'evt_x', 'candidate.created', 1, 5, now() - interval '29 days')`,
        [attempts.old, attempts.recent, org.organization.id, hook.body['data'].id],
      );
      const atsEvents = { old: `atsevt_${tag}_old`, recent: `atsevt_${tag}_recent` };
      await db.query(
        `insert into integrations.ats_events (id, organization_id, source, event_id, type, payload, status, created_at) values
           ($1, $3, 'greenhouse', $1, 'candidate.created', '{}', 'failed', now() - interval '31 days'),
           ($2, $3, 'greenhouse', $2, 'candidate.created', '{}', 'failed', now() - interval '29 days')`,
        [atsEvents.old, atsEvents.recent, org.organization.id],
      );
      const tombstones = { old: `int_${tag}_old`, recent: `int_${tag}_recent` };
      await db.query(
        `insert into integrations.erased_ids (organization_id, id, candidate_id, created_at) values
           ($3, $1, 'cand_x', now() - interval '31 days'), ($3, $2, 'cand_x', now() - interval '29 days')`,
        [tombstones.old, tombstones.recent, org.organization.id],
      );
      const seeded = await seedOutboxes('integrations');
      const scopes = { old: `${tag}_old`, recent: `${tag}_recent` };
      await db.query(
        `insert into integrations.idempotency_records (scope, resource_id, created_at) values
           ($1, 'whk_x', now() - interval '25 hours'), ($2, 'whk_y', now() - interval '23 hours')`,
        [scopes.old, scopes.recent],
      );
      await runSchedule('purge-webhook-events');
      await assertOutboxesPurged('integrations', seeded);
      assert.deepEqual(await present('integrations.delivery_attempts', 'id', Object.values(attempts)), [attempts.recent]);
      assert.deepEqual(await present('integrations.idempotency_records', 'scope', Object.values(scopes)), [scopes.recent]);
      assert.deepEqual(await present('integrations.ats_events', 'id', Object.values(atsEvents)), [atsEvents.recent]);
      assert.deepEqual(await present('integrations.erased_ids', 'id', Object.values(tombstones)), [tombstones.recent]);
    } finally {
      await receiver.close();
    }
  });

  it('identity: expired and logged-out console sessions go, live ones stay', async () => {
    const user = (await db.query<{ id: string }>('select id from identity.users order by created_at limit 1')).rows[0]!.id;
    const ids = { expired: `ses_${tag}_expired`, revoked: `ses_${tag}_revoked`, live: `ses_${tag}_live` };
    await db.query(
      `insert into identity.sessions (id, token_hash, user_id, expires_at, revoked_at) values
         ($1, $1, $4, now() - interval '1 minute', null),
         ($2, $2, $4, now() + interval '1 hour', now() - interval '1 minute'),
         ($3, $3, $4, now() + interval '1 hour', null)`,
      [ids.expired, ids.revoked, ids.live, user],
    );
    await runSchedule('purge-identity');
    assert.deepEqual(await present('identity.sessions', 'id', Object.values(ids)), [ids.live]);
    await db.query('delete from identity.sessions where id = $1', [ids.live]);
  });

  it('gateway: idempotency records past IDEMPOTENCY_RETENTION_HOURS go, recent ones stay', async () => {
    const keys = { old: `idem_${tag}_old`, recent: `idem_${tag}_recent` };
    await db.query(
      `insert into gateway.idempotency_keys (api_key_id, method, path, idempotency_key, fingerprint, state, created_at) values
         ('key_${tag}', 'POST', '/api/v1/candidates', $1, 'f', 'completed', now() - interval '25 hours'),
         ('key_${tag}', 'POST', '/api/v1/candidates', $2, 'f', 'completed', now() - interval '23 hours')`,
      [keys.old, keys.recent],
    );
    await runSchedule('purge-gateway');
    assert.deepEqual(await present('gateway.idempotency_keys', 'idempotency_key', Object.values(keys)), [keys.recent]);
    await db.query('delete from gateway.idempotency_keys where idempotency_key = $1', [keys.recent]);
  });
});
