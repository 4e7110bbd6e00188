import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { call, eventually, newOrganizationWithKey, startExtraGateway, testEnv } from '@hireloop/devstack/testing';
import { newPosition, schedule, startInvite, tokenOf } from './interview-helpers.js';
import { startReceiver } from './webhook-receiver.js';

/**
 * PRODUCT.md §11: no secret or token is stored in clear anywhere, and none reaches a log. After
 * exercising the stack with each kind of secret (an API key, a webhook secret, a console session
 * token, an invite token, a user's password) — creating, using and replaying them — neither the
 * stack's log file nor any column of any table in any schema holds one of them in clear (event
 * payloads included: they hold the invite token sealed). The stack logs at `warn` in tests, so the calls
 * go through a gateway of the test's own that logs at `trace`, whose output is scanned too.
 */
describe('secret leaks (logs and every table)', () => {
  let db: pg.Client;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  // A gateway of its own that logs everything (the stack logs at warn), its output kept here.
  let gateway: Awaited<ReturnType<typeof startExtraGateway>>;
  before(async () => {
    db = new pg.Client({ connectionString: testEnv().databaseUrl });
    await db.connect();
    receiver = await startReceiver();
    gateway = await startExtraGateway({ LOG_LEVEL: 'trace' });
  });
  after(async () => {
    await db.end();
    await receiver.close();
    await gateway.child.stop();
  });

  it('no API key, webhook secret, session token, invite token or password in clear after a full run', async () => {
    const env = testEnv();
    const secrets: Record<string, string> = {};
    const baseUrl = gateway.url;

    // An API key, used.
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    secrets['API key'] = org.key;
    assert.equal((await call('GET', '/api/v1/me', { key: org.key, baseUrl })).status, 200);

    // A webhook secret, through the idempotency store, signing a delivery.
    const created = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url: receiver.url, events: ['*'] }, headers: { 'idempotency-key': `leak-${Date.now()}` }, baseUrl });
    assert.equal(created.status, 201, created.text);
    secrets['webhook secret'] = created.body.data.secret;
    secrets['webhook secret (base64 part)'] = created.body.data.secret.replace(/^whsec_/, '');

    // A console session: the login password and the session token, used against /trpc.
    const login = await call('POST', '/auth/login', { body: { email: env.adminEmail, password: env.adminPassword }, baseUrl });
    assert.equal(login.status, 200, login.text);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    secrets['session token'] = cookie.slice(cookie.indexOf('=') + 1);
    secrets['password'] = env.adminPassword;
    const input = encodeURIComponent(JSON.stringify({}));
    assert.equal((await call('GET', `/trpc/identity/apiKeys.list?input=${input}`, { headers: { cookie }, baseUrl })).status, 200);
    assert.equal((await call('POST', '/auth/login', { body: { email: env.adminEmail, password: `${env.adminPassword}-wrong` }, baseUrl })).status, 401);

    // An invite token: scheduled (its event goes out as a webhook), opened and started.
    const positionId = (await newPosition(org.key)).id;
    const interview = await schedule(org.key, positionId);
    secrets['invite token'] = tokenOf(interview.inviteUrl);
    assert.equal((await fetch(`${baseUrl}/i/${secrets['invite token']}`)).status, 200);
    await startInvite(secrets['invite token']);
    await eventually(async () => receiver.of('interview.scheduled').length, (n) => n > 0);
    // The event still carries the invite URL where it leaves the platform: the webhook and GET /events.
    assert.equal(receiver.of('interview.scheduled')[0]!.event.data.inviteUrl, interview.inviteUrl);
    const events = await call('GET', '/api/v1/events?type=interview.scheduled', { key: org.key, baseUrl });
    assert.equal(events.status, 200, events.text);
    assert.equal(events.body.data[0].data.inviteUrl, interview.inviteUrl);
    assert.equal((await call('DELETE', `/api/v1/webhooks/${created.body.data.id}`, { key: org.key })).status, 204);

    for (const [what, value] of Object.entries(secrets)) assert.ok(value && value.length >= 8, `${what} was captured`);

    // The log file of the stack.
    const log = readFileSync(join(process.env['TEST_DATA_DIR']!, 'stack.log'), 'utf8');
    assert.ok(gateway.logs.length > 0, 'the trace-level gateway logged');
    for (const [what, value] of Object.entries(secrets)) {
      assert.ok(!log.includes(value), `the ${what} is in stack.log`);
      assert.ok(!gateway.logs.some((line) => line.includes(value)), `the ${what} is in the gateway's trace log`);
    }

    // Every table of every schema, each row as text.
    const tables = await db.query<{ schema: string; name: string }>(
      `select table_schema as schema, table_name as name from information_schema.tables
       where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
    );
    assert.ok(tables.rows.length >= 10, 'the schemas of every service are scanned');
    const found: string[] = [];
    for (const { schema, name } of tables.rows) {
      const ref = `"${schema}"."${name}"`;
      for (const [what, value] of Object.entries(secrets)) {
        const hit = await db.query(`select 1 from ${ref} t where strpos(t::text, $1) > 0 limit 1`, [value]);
        if (hit.rowCount) found.push(`${what} in ${schema}.${name}`);
      }
    }
    assert.deepEqual(found, []);
  });
});
