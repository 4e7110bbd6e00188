import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { call, newOrganizationWithKey, testEnv } from '@hireloop/devstack/testing';

describe('Idempotency-Key on POST (PRODUCT.md §6)', () => {
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  let db: pg.Client;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin']);
    db = new pg.Client({ connectionString: testEnv().databaseUrl });
    await db.connect();
  });
  after(() => db.end());

  const body = (n: string) => ({ email: `idem-${n}@example.com`, name: `Idem ${n}` });

  it('replays the first response for the same key and body, with Idempotent-Replayed: true', async () => {
    const headers = { 'idempotency-key': `k-${Date.now()}` };
    const first = await call('POST', '/api/v1/candidates', { key: org.key, body: body('a'), headers });
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const again = await call('POST', '/api/v1/candidates', { key: org.key, body: body('a'), headers });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.data.id, first.body.data.id);
    assert.equal(again.headers.get('location'), first.headers.get('location'));
    const list = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(body('a').email)}`, { key: org.key });
    assert.equal(list.body.data.length, 1, 'created once');
  });

  it("a retry after the gateway's record is gone gets the original 201 from the service, written once", async () => {
    // A gateway that crashed after the service committed never stored the response; the service
    // recorded the forwarded key with the write, so the retry finds the original candidate.
    const idem = `k-crash-${Date.now()}`;
    const headers = { 'idempotency-key': idem };
    const first = await call('POST', '/api/v1/candidates', { key: org.key, body: body('crash'), headers });
    assert.equal(first.status, 201, first.text);
    const forgotten = await db.query('delete from gateway.idempotency_keys where api_key_id = $1 and idempotency_key = $2', [org.keyId, idem]);
    assert.equal(forgotten.rowCount, 1);
    const retry = await call('POST', '/api/v1/candidates', { key: org.key, body: body('crash'), headers });
    assert.equal(retry.status, 201, retry.text);
    assert.equal(retry.headers.get('idempotent-replayed'), null, 'answered by the service, not replayed by the gateway');
    assert.deepEqual(retry.body, first.body);
    assert.equal(retry.headers.get('location'), first.headers.get('location'));
    const list = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(body('crash').email)}`, { key: org.key });
    assert.equal(list.body.data.length, 1, 'created once');
    const recorded = await db.query('select 1 from recruiting.idempotency_records where resource_id = $1', [first.body.data.id]);
    assert.equal(recorded.rowCount, 1, 'one record, with the write');
  });

  it("a retry with another body after the gateway's record is gone is 422 idempotency_key_reused at the service, and writes nothing", async () => {
    // The service records the body's fingerprint with the key: what the gateway would have said.
    const idem = `k-crash-other-${Date.now()}`;
    const headers = { 'idempotency-key': idem };
    const first = await call('POST', '/api/v1/positions', { key: org.key, body: { title: 'First body' }, headers });
    assert.equal(first.status, 201, first.text);
    await db.query('delete from gateway.idempotency_keys where api_key_id = $1 and idempotency_key = $2', [org.keyId, idem]);
    const other = await call('POST', '/api/v1/positions', { key: org.key, body: { title: 'Another body' }, headers });
    assert.equal(other.status, 422, other.text);
    assert.equal(other.body.error.code, 'idempotency_key_reused');
    const same = await call('POST', '/api/v1/positions', { key: org.key, body: { title: 'First body' }, headers });
    assert.equal(same.status, 201, same.text);
    assert.equal(same.body.data.id, first.body.data.id, 'the same body still gets the first write');
    const made = await db.query("select count(*)::int as n from recruiting.positions where organization_id = $1 and title = 'Another body'", [org.organization.id]);
    assert.equal(made.rows[0].n, 0);
  });

  it("positions and interviews (no natural unique key): a retry after the gateway's record is gone makes no second one", async () => {
    const tag = `crash-${Date.now()}`;
    const retried = async (path: string, payload: unknown) => {
      const headers = { 'idempotency-key': `${tag}${path}` };
      const first = await call('POST', path, { key: org.key, body: payload, headers });
      assert.equal(first.status, 201, first.text);
      await db.query('delete from gateway.idempotency_keys where api_key_id = $1 and idempotency_key = $2', [org.keyId, headers['idempotency-key']]);
      const retry = await call('POST', path, { key: org.key, body: payload, headers });
      assert.equal(retry.status, 201, retry.text);
      assert.deepEqual(retry.body, first.body, path);
      return first.body.data as { id: string };
    };
    const position = await retried('/api/v1/positions', { title: `Position ${tag}`, interviewQuestions: ['Why us?'] });
    assert.equal((await db.query('select 1 from recruiting.positions where title = $1', [`Position ${tag}`])).rowCount, 1, 'one position');
    await retried('/api/v1/interviews', { positionId: position.id, candidate: { email: `${tag}@example.com`, name: 'Ada Lovelace' } });
    assert.equal((await db.query('select 1 from recruiting.interviews where position_id = $1', [position.id])).rowCount, 1, 'one interview');
  });

  it('the same Idempotency-Key under another API key is another request', async () => {
    const other = await newOrganizationWithKey(['read', 'write']);
    const headers = { 'idempotency-key': `k-shared-${Date.now()}` };
    const mine = await call('POST', '/api/v1/candidates', { key: org.key, body: body('shared'), headers });
    const theirs = await call('POST', '/api/v1/candidates', { key: other.key, body: body('shared'), headers });
    assert.equal(mine.status, 201, mine.text);
    assert.equal(theirs.status, 201, theirs.text);
    assert.notEqual(theirs.body.data.id, mine.body.data.id);
  });

  it('422 idempotency_key_reused for the same key with a different body', async () => {
    const headers = { 'idempotency-key': `k2-${Date.now()}` };
    assert.equal((await call('POST', '/api/v1/candidates', { key: org.key, body: body('b'), headers })).status, 201);
    const changed = await call('POST', '/api/v1/candidates', { key: org.key, body: body('c'), headers });
    assert.equal(changed.status, 422);
    assert.equal(changed.body.error.code, 'idempotency_key_reused');
  });

  it('409 idempotency_key_in_use while the first request is still running', async () => {
    const idem = `k3-${Date.now()}`;
    const payload = body('d');
    // The first request's claim, as the gateway writes it when it starts executing.
    const { createHash } = await import('node:crypto');
    await db.query(
      `insert into gateway.idempotency_keys (api_key_id, method, path, idempotency_key, fingerprint, state, locked_until)
       values ($1, 'POST', '/candidates', $2, $3, 'in_flight', now() + interval '1 minute')`,
      [org.keyId, idem, createHash('sha256').update(JSON.stringify(payload)).digest('hex')],
    );
    const res = await call('POST', '/api/v1/candidates', { key: org.key, body: payload, headers: { 'idempotency-key': idem } });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.error.code, 'idempotency_key_in_use');
  });

  it('concurrent duplicates never both execute', async () => {
    const headers = { 'idempotency-key': `k4-${Date.now()}` };
    const results = await Promise.all(Array.from({ length: 8 }, () => call('POST', '/api/v1/candidates', { key: org.key, body: body('e'), headers })));
    const statuses = results.map((r) => r.status);
    assert.ok(statuses.every((s) => s === 201 || s === 409), statuses.join(','));
    const executed = results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') !== 'true');
    assert.equal(executed.length, 1, statuses.join(','));
    const list = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(body('e').email)}`, { key: org.key });
    assert.equal(list.body.data.length, 1);
  });

  it('keys are per API key: another key with the same Idempotency-Key executes anew', async () => {
    const other = await newOrganizationWithKey(['write']);
    const headers = { 'idempotency-key': `shared-${Date.now()}` };
    const a = await call('POST', '/api/v1/candidates', { key: org.key, body: body('f'), headers });
    const b = await call('POST', '/api/v1/candidates', { key: other.key, body: body('f'), headers });
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    assert.equal(b.headers.get('idempotent-replayed'), null);
    assert.notEqual(a.body.data.id, b.body.data.id);
  });

  it('refuses an Idempotency-Key longer than 255 characters', async () => {
    const res = await call('POST', '/api/v1/candidates', { key: org.key, body: body('g'), headers: { 'idempotency-key': 'x'.repeat(256) } });
    assert.equal(res.status, 422);
    assert.equal(res.body.error.code, 'validation_failed');
  });

  it('stores responses sealed: the secret of a POST /webhooks 201 is never in clear in Postgres, and the replay still shows it', async () => {
    const headers = { 'idempotency-key': `wh-${Date.now()}` };
    const request = { url: 'http://127.0.0.1:9/hook', events: ['interview.scheduled'] };
    const first = await call('POST', '/api/v1/webhooks', { key: org.key, body: request, headers });
    assert.equal(first.status, 201, first.text);
    const secret = first.body.data.secret as string;
    assert.match(secret, /^whsec_/);
    const stored = await db.query<{ response_body: string }>(
      'select response_body from gateway.idempotency_keys where idempotency_key = $1', [headers['idempotency-key']]);
    assert.equal(stored.rows.length, 1);
    assert.match(stored.rows[0]!.response_body, /^v2:[A-Za-z0-9_-]+:/, 'sealed with a key id');
    assert.ok(!stored.rows[0]!.response_body.includes(secret.slice(6)), 'no secret in clear');
    const replay = await call('POST', '/api/v1/webhooks', { key: org.key, body: request, headers });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body.data.secret, secret);
    assert.equal((await call('DELETE', `/api/v1/webhooks/${first.body.data.id}`, { key: org.key })).status, 204, 'no deliveries to the unused URL');
  });
});
