import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes, scryptSync } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { call, newKey, newOrganizationWithKey, testEnv, testIdentity, type ApiResponse } from '@hireloop/devstack/testing';
import { ROOT } from '@hireloop/devstack/paths';
import { createRecruitingClient } from '@hireloop/recruiting/client';
import type { AuditEvent } from '@hireloop/contracts';
import { startReceiver } from './webhook-receiver.js';
import { declineInvite, newPosition, schedule, startInvite, submitInvite, tokenOf } from './interview-helpers.js';

/**
 * The audit trail (PRODUCT.md §7, §10; issue 11 item 4): one event per write from each surface,
 * with the actor who made it, in the write's transaction; GET /audit-events merges the services.
 */
const run = promisify(execFile);
const unique = () => Math.random().toString(36).slice(2, 10);

async function auditEvents(key: string, query: Record<string, string> = {}): Promise<AuditEvent[]> {
  const res = await call<{ data: AuditEvent[] }>('GET', `/api/v1/audit-events?${new URLSearchParams({ limit: '100', ...query }).toString()}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

/** A console user of the organization, logged in: its id and session cookie. */
async function consoleUser(organizationId: string) {
  const email = `audit-${unique()}@example.test`;
  const user = await testIdentity().system.users.create.mutate({ organizationId, email, name: 'Audit Reviewer', password: 'a long password' });
  const login = await call('POST', '/auth/login', { body: { email, password: 'a long password' } });
  assert.equal(login.status, 200, login.text);
  return { id: user.id, cookie: (login.headers.get('set-cookie') ?? '').split(';')[0]! };
}

describe('one audit event per write, with its actor', () => {
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin']);
  });

  it('REST: an API key\'s write records the key, the request id and the client\'s /24, and no personal data', async () => {
    const email = `rest-${unique()}@example.test`;
    const created = await call('POST', '/api/v1/candidates', { key: org.key, body: { email, name: 'Ada Lovelace' } });
    assert.equal(created.status, 201, created.text);
    const id = created.body.data.id as string;
    const events = await auditEvents(org.key, { resourceId: id });
    assert.equal(events.length, 1, JSON.stringify(events));
    const [event] = events as [AuditEvent];
    assert.equal(event.action, 'candidate.created');
    assert.deepEqual(event.resource, { type: 'candidate', id });
    assert.deepEqual(event.actor, { type: 'api_key', id: org.keyId, name: 'test' });
    assert.equal(event.requestId, created.headers.get('x-request-id'));
    assert.equal(event.ip, '127.0.0.0/24');
    assert.match(event.id, /^aud_/);
    const text = JSON.stringify(event);
    assert.ok(!text.includes(email) && !text.includes('Ada'), 'ids only: no e-mail or name in the event');
  });

  it('console tRPC: a session user\'s write records the user, by name', async () => {
    const user = await consoleUser(org.organization.id);
    const res = await call('POST', '/trpc/recruiting/positions.create', { headers: { cookie: user.cookie }, body: { title: 'Audited role' } });
    assert.equal(res.status, 200, res.text);
    const id = res.body.result.data.id as string;
    const events = await auditEvents(org.key, { resourceId: id });
    assert.equal(events.length, 1, JSON.stringify(events));
    assert.equal(events[0]!.action, 'position.created');
    assert.deepEqual(events[0]!.actor, { type: 'user', id: user.id, name: 'Audit Reviewer' });
    assert.equal(events[0]!.ip, '127.0.0.0/24');

    // The console reads the same merged list through identity's router.
    const input = encodeURIComponent(JSON.stringify({ resourceId: id }));
    const listed = await call('GET', `/trpc/identity/auditEvents.list?input=${input}`, { headers: { cookie: user.cookie } });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.result.data.items, events);
  });

  it('CLI: `npm run keys -- create` records the tool as a system actor', async () => {
    const { stderr } = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'services/identity/src/cli/keys.ts'), 'create', '--name', 'cli audited', '--scopes', 'read', '--org', org.organization.id], { cwd: ROOT, env: process.env });
    const keyId = /created (key_[0-9A-Za-z]+)/.exec(stderr)?.[1];
    assert.ok(keyId, stderr);
    const events = await auditEvents(org.key, { resourceId: keyId });
    assert.equal(events.length, 1, JSON.stringify(events));
    assert.equal(events[0]!.action, 'api_key.created');
    assert.deepEqual(events[0]!.actor, { type: 'system', id: 'cli:keys', name: 'npm run keys' });
    assert.equal(events[0]!.ip, null);
  });

  it('an erasure is the DELETE caller\'s, though integrations passes it on to recruiting', async () => {
    const created = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: `erase-${unique()}@example.test`, name: 'To Be Erased' } });
    const id = created.body.data.id as string;
    const erased = await call('DELETE', `/api/v1/candidates/${id}`, { key: org.key });
    assert.equal(erased.status, 202, erased.text);
    const events = await auditEvents(org.key, { resourceId: id });
    assert.deepEqual(events.map((e) => [e.action, e.actor.type, e.actor.id, e.requestId]), [
      ['candidate.erased', 'api_key', org.keyId, erased.headers.get('x-request-id')],
      ['candidate.created', 'api_key', org.keyId, created.headers.get('x-request-id')],
    ]);
  });

  it('writes made on the caller\'s behalf are the caller\'s too: an enrollment\'s new candidate and interview, an interview\'s new candidate', async () => {
    const position = await newPosition(org.key);
    const recruiting = createRecruitingClient(process.env['RECRUITING_URL']!, process.env['INTERNAL_TOKEN_KEYS']!).forOrganization(org.organization.id);
    const flow = await recruiting.flows.create.mutate({ name: 'Audited flow', positionId: position.id, stages: [{ name: 'AI interview', kind: 'ai_interview' }, { name: 'Review', kind: 'review' }] });
    const enrolled = await call('POST', `/api/v1/hiring-flows/${flow.id}/candidates`, { key: org.key, body: { candidate: { email: `enrolled-${unique()}@example.test`, name: 'Enrolled Person' } } });
    assert.equal(enrolled.status, 201, enrolled.text);
    const { id: enrollmentId, candidateId, interviewId } = enrolled.body.data as { id: string; candidateId: string; interviewId: string };
    assert.ok(interviewId, 'the first stage scheduled an interview');
    const requestId = enrolled.headers.get('x-request-id');
    for (const [id, action] of [[enrollmentId, 'hiring_flow.candidate_enrolled'], [candidateId, 'candidate.created'], [interviewId, 'interview.scheduled']]) {
      const events = await auditEvents(org.key, { resourceId: id! });
      assert.deepEqual(events.map((e) => [e.action, e.actor.type, e.actor.id, e.requestId]), [[action, 'api_key', org.keyId, requestId]], id);
    }
    const scheduled = await call('POST', '/api/v1/interviews', { key: org.key, body: { positionId: position.id, candidate: { email: `scheduled-${unique()}@example.test`, name: 'Scheduled Person' } } });
    assert.equal(scheduled.status, 201, scheduled.text);
    const events = await auditEvents(org.key, { resourceId: scheduled.body.data.candidate.id });
    assert.deepEqual(events.map((e) => [e.action, e.actor.id, e.requestId]), [['candidate.created', org.keyId, scheduled.headers.get('x-request-id')]]);
  });

  it('a write that fails and rolls back leaves no audit event', async () => {
    const a = await call('POST', '/api/v1/positions', { key: org.key, body: { title: 'A', externalId: `ext-${unique()}` } });
    const b = await call('POST', '/api/v1/positions', { key: org.key, body: { title: 'B' } });
    assert.equal(a.status, 201, a.text);
    assert.equal(b.status, 201, b.text);
    // The update records its audit row, then finds the externalId taken and rolls back.
    const clash = await call('PATCH', `/api/v1/positions/${b.body.data.id}`, { key: org.key, body: { externalId: a.body.data.externalId } });
    assert.ok(clash.status >= 400 && clash.status < 500, clash.text);
    const events = await auditEvents(org.key, { resourceId: b.body.data.id });
    assert.deepEqual(events.map((e) => e.action), ['position.created']);
    const ok = await call('PATCH', `/api/v1/positions/${b.body.data.id}`, { key: org.key, body: { title: 'B2' } });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual((await auditEvents(org.key, { resourceId: b.body.data.id })).map((e) => e.action), ['position.updated', 'position.created']);
  });
});

describe('console sessions: a login and a logout are their user\'s writes', () => {
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  before(async () => {
    org = await newOrganizationWithKey(['admin']);
  });

  it('records session.created and session.revoked with the user, the request and the /24; a failed login or a second logout records none', async () => {
    const email = `session-${unique()}@example.test`;
    const user = await testIdentity().system.users.create.mutate({ organizationId: org.organization.id, email, name: 'Session Keeper', password: 'a long password' });
    const actor = { type: 'user', id: user.id, name: 'Session Keeper' };
    const everything = () => auditEvents(org.key);
    const untouched = await everything();

    const failed = await call('POST', '/auth/login', { body: { email, password: 'not the password' } });
    assert.equal(failed.status, 401, failed.text);
    assert.deepEqual(await everything(), untouched, 'a failed login writes no session and records nothing');

    const login = await call('POST', '/auth/login', { body: { email, password: 'a long password' } });
    assert.equal(login.status, 200, login.text);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const created = await auditEvents(org.key, { actorId: user.id });
    assert.equal(created.length, 1, JSON.stringify(created));
    const [session] = created as [AuditEvent];
    assert.equal(session.action, 'session.created');
    assert.equal(session.resource.type, 'session');
    assert.match(session.resource.id, /^ses_/);
    assert.deepEqual(session.actor, actor);
    assert.equal(session.requestId, login.headers.get('x-request-id'));
    assert.equal(session.ip, '127.0.0.0/24');
    assert.ok(!JSON.stringify(session).includes(email), 'ids only: no e-mail in the event');

    const logout = await call('POST', '/auth/logout', { headers: { cookie } });
    assert.equal(logout.status, 204, logout.text);
    const loggedOut = await auditEvents(org.key, { actorId: user.id });
    assert.equal(loggedOut.length, 2, JSON.stringify(loggedOut));
    const revoked = loggedOut[0]!;
    assert.equal(revoked.action, 'session.revoked');
    assert.deepEqual(revoked.resource, session.resource, 'the session the login opened');
    assert.deepEqual(revoked.actor, actor);
    assert.equal(revoked.requestId, logout.headers.get('x-request-id'));
    assert.equal(revoked.ip, '127.0.0.0/24');

    assert.equal((await call('POST', '/auth/logout', { headers: { cookie } })).status, 204);
    assert.deepEqual(await auditEvents(org.key, { actorId: user.id }), loggedOut, 'a revoked session is not revoked again');
  });
});

describe('a login that rehashes a legacy password hash audits the rehash', () => {
  it('records user.password_rehashed (the user as actor and resource, nothing else of them) with the session, once', async () => {
    const org = await newOrganizationWithKey(['admin']);
    const email = `rehash-${unique()}@example.test`;
    const password = 'a legacy password';
    const user = await testIdentity().system.users.create.mutate({ organizationId: org.organization.id, email, name: 'Legacy Hash', password: 'replaced below' });
    // A legacy scrypt hash (N=16384, r=8, p=1) of the password, as users made before argon2id have.
    const salt = randomBytes(16);
    const key = scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 });
    const db = new pg.Client({ connectionString: testEnv().databaseUrl });
    await db.connect();
    try {
      await db.query('update identity.users set password_hash = $1 where id = $2', [`scrypt$16384$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`, user.id]);
      const login = await call('POST', '/auth/login', { body: { email, password } });
      assert.equal(login.status, 200, login.text);
      const stored = (await db.query('select password_hash from identity.users where id = $1', [user.id])).rows[0].password_hash;
      assert.match(stored, /^\$argon2id\$/, 'the hash was replaced');
    } finally {
      await db.end();
    }
    const recorded = await auditEvents(org.key, { actorId: user.id });
    assert.deepEqual(recorded.map((e) => e.action).sort(), ['session.created', 'user.password_rehashed'], JSON.stringify(recorded));
    const rehashed = recorded.find((e) => e.action === 'user.password_rehashed')!;
    assert.deepEqual(rehashed.resource, { type: 'user', id: user.id });
    assert.deepEqual(rehashed.actor, { type: 'user', id: user.id, name: 'Legacy Hash' });
    assert.ok(!JSON.stringify(rehashed).includes(email), 'ids only: no e-mail in the event');

    const again = await call('POST', '/auth/login', { body: { email, password } });
    assert.equal(again.status, 200, again.text);
    const after = await auditEvents(org.key, { actorId: user.id });
    assert.deepEqual(after.map((e) => e.action).sort(), ['session.created', 'session.created', 'user.password_rehashed'], 'a current hash is not rehashed again');
  });
});

describe('invite page: the candidate\'s actions are audited as the invite page\'s', () => {
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  let positionId: string;
  let db: pg.Client;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin']);
    positionId = (await newPosition(org.key)).id;
    db = new pg.Client({ connectionString: testEnv().databaseUrl });
    await db.connect();
  });
  after(() => db.end());
  const invite = { type: 'system', id: 'invite', name: 'Candidate on the invite page' };
  const actionsOn = async (id: string) => (await auditEvents(org.key, { resourceId: id })).map((e) => e.action);

  /** The newest event on the interview: the one the form recorded, by the invite page, from this request and /24, without personal data. */
  async function recorded(interview: Awaited<ReturnType<typeof schedule>>, action: string, requestId: string | null) {
    const [event] = await auditEvents(org.key, { resourceId: interview.id });
    assert.ok(event);
    assert.equal(event.action, action, JSON.stringify(event));
    assert.deepEqual(event.actor, invite);
    assert.deepEqual(event.resource, { type: 'interview', id: interview.id });
    assert.ok(requestId);
    assert.equal(event.requestId, requestId);
    assert.equal(event.ip, '127.0.0.0/24');
    const text = JSON.stringify(event);
    assert.ok(!text.includes(interview.candidate.email) && !text.includes('Ada'), 'ids only: no e-mail or name in the event');
  }

  it('start (with consent) and submit each record one event', async () => {
    const i = await schedule(org.key, positionId);
    const token = tokenOf(i.inviteUrl);
    const started = await startInvite(token);
    assert.equal(started.status, 303, started.text);
    await recorded(i, 'interview.started', started.requestId);
    assert.deepEqual(await actionsOn(i.id), ['interview.started', 'interview.scheduled']);
    assert.equal((await startInvite(token)).status, 303, 'starting again changes nothing');
    assert.deepEqual(await actionsOn(i.id), ['interview.started', 'interview.scheduled'], 'and records nothing');

    const submitted = await submitInvite(token, ['Because.', 'A race.']);
    assert.equal(submitted.status, 303, submitted.text);
    await recorded(i, 'interview.submitted', submitted.requestId);
    assert.deepEqual(await actionsOn(i.id), ['interview.submitted', 'interview.started', 'interview.scheduled']);
  });

  it('decline records one event; declining again records none', async () => {
    const i = await schedule(org.key, positionId);
    const token = tokenOf(i.inviteUrl);
    const declined = await declineInvite(token);
    assert.equal(declined.status, 303, declined.text);
    await recorded(i, 'interview.declined', declined.requestId);
    assert.equal((await declineInvite(token)).status, 303);
    assert.deepEqual(await actionsOn(i.id), ['interview.declined', 'interview.scheduled']);
  });

  it('consent to an interview started before consent existed records interview.consented', async () => {
    const i = await schedule(org.key, positionId);
    await db.query(`update recruiting.interviews set status = 'in_progress', started_at = now() where id = $1`, [i.id]);
    const consented = await startInvite(tokenOf(i.inviteUrl));
    assert.equal(consented.status, 303, consented.text);
    await recorded(i, 'interview.consented', consented.requestId);
    assert.deepEqual(await actionsOn(i.id), ['interview.consented', 'interview.scheduled']);
  });
});

describe('GET /api/v1/audit-events', () => {
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  const made: string[] = [];
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  after(() => receiver.close());
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin']);
    receiver = await startReceiver();
    // Writes in all three services: a candidate (recruiting), a webhook (integrations), a key (identity).
    for (let i = 0; i < 2; i++) {
      const c = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: `page-${i}-${unique()}@example.test`, name: 'Page Test' } });
      const w = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url: `${receiver.url}/hook-${i}`, events: ['*'] } });
      const k = await newKey(org.organization.id, ['read']);
      made.push(c.body.data.id, w.body.data.id, k.keyId);
    }
  });

  it('walks every event once, newest first, across pages that merge the services', async () => {
    const seen: AuditEvent[] = [];
    let url: string | null = '/api/v1/audit-events?limit=2';
    while (url) {
      const res: ApiResponse<{ data: AuditEvent[] }> = await call<{ data: AuditEvent[] }>('GET', url, { key: org.key });
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.data.length <= 2);
      seen.push(...res.body.data);
      const next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
      url = next ? new URL(next).pathname + new URL(next).search : null;
    }
    const ids = seen.map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length, 'no event twice');
    const all = await auditEvents(org.key);
    assert.deepEqual(ids, all.map((e) => e.id));
    for (const resource of made) assert.ok(seen.some((e) => e.resource.id === resource), `${resource} is in the walk`);
    const order = seen.map((e) => e.createdAt);
    assert.deepEqual(order, [...order].sort().reverse(), 'newest first');
  });

  it('filters by action, actor and time; a cursor is bound to its filters', async () => {
    const webhooks = await auditEvents(org.key, { action: 'webhook.created' });
    assert.equal(webhooks.length, 2);
    assert.ok(webhooks.every((e) => e.resource.type === 'webhook' && e.actor.id === org.keyId));
    const byKey = await auditEvents(org.key, { actorId: org.keyId });
    assert.ok(byKey.length >= 4 && byKey.every((e) => e.actor.id === org.keyId));
    assert.deepEqual(await auditEvents(org.key, { createdAfter: new Date(Date.now() + 60_000).toISOString() }), []);
    assert.deepEqual(await auditEvents(org.key, { createdBefore: '2000-01-01T00:00:00Z' }), []);

    const first = await call('GET', '/api/v1/audit-events?limit=1&action=webhook.created', { key: org.key });
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    assert.ok(next);
    const cursor = new URL(next).searchParams.get('cursor')!;
    const other = await call('GET', `/api/v1/audit-events?limit=1&action=candidate.created&cursor=${encodeURIComponent(cursor)}`, { key: org.key });
    assert.equal(other.status, 422, other.text);
    assert.equal(other.body.error.code, 'validation_failed');
  });

  it('needs the admin scope: 403 insufficient_scope for read and write', async () => {
    const { key } = await newKey(org.organization.id, ['read', 'write']);
    const res = await call('GET', '/api/v1/audit-events', { key });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'insufficient_scope');
  });

  it('shows only the caller\'s organization', async () => {
    const other = await newOrganizationWithKey(['admin']);
    const theirs = await auditEvents(other.key);
    assert.ok(!theirs.some((e) => made.includes(e.resource.id)), 'another organization sees none of these events');
    assert.deepEqual(await auditEvents(other.key, { resourceId: made[0]! }), []);
  });

  it('refuses unknown parameters', async () => {
    const res = await call('GET', '/api/v1/audit-events?resource=x', { key: org.key });
    assert.equal(res.status, 422);
  });
});
