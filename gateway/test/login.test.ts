import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, scryptSync } from 'node:crypto';
import { createDb, createPool } from '@hireloop/platform';
import { call, startExtraProcess, testEnv, testIdentity } from '@hireloop/devstack/testing';
import { assertError, unique } from './api-assertions.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PASSWORD = 'correct horse battery staple';

async function newUser(password = PASSWORD) {
  const email = `login-${unique()}@example.test`;
  await testIdentity().system.users.create.mutate({ organizationId: testEnv().demoOrgId, email, name: 'Login Test', password });
  return email;
}

/** A client address no other attempt uses (IPv6 documentation prefix): the extra gateway trusts loopback's X-Forwarded-For. */
let ipCounter = 0;
const freshIp = () => `2001:db8::${(++ipCounter).toString(16)}`;

describe('console login throttling (PRODUCT.md §11), against an identity service with small limits', () => {
  let processes: Awaited<ReturnType<typeof startExtraProcess>>[] = [];
  let gatewayUrl = '';
  const attempt = (email: string, password: string, ip: string) =>
    call('POST', '/auth/login', { baseUrl: gatewayUrl, body: { email, password }, headers: { 'x-forwarded-for': ip } });

  before(async () => {
    const identity = await startExtraProcess('services/identity/src/index.ts', 'IDENTITY_PORT', {
      LOGIN_MAX_FAILURES: '5',
      LOGIN_MAX_FAILURES_PER_IP: '4',
      LOGIN_FAILURE_WINDOW_SECONDS: '900',
      // Long enough that a loaded machine still sends the next attempt inside the lock.
      LOGIN_LOCKOUT_SECONDS: '4',
      LOGIN_LOCKOUT_MAX_SECONDS: '8',
    });
    processes.push(identity);
    const gateway = await startExtraProcess('gateway/src/index.ts', 'GATEWAY_PORT', { IDENTITY_URL: identity.url, TRUST_PROXY: 'loopback' });
    processes.push(gateway);
    gatewayUrl = gateway.url;
  });
  after(async () => {
    for (const p of processes.reverse()) await p.child.stop();
    processes = [];
  });

  it('5 failures for an e-mail, from any IPs, lock it: 429 rate_limited with Retry-After, then the lock doubles, and a success after the wait resets it', async () => {
    const email = await newUser();
    for (let i = 0; i < 5; i++) assertError(await attempt(email, 'wrong password', freshIp()), 401, 'invalid_credentials');

    const locked = await attempt(email, PASSWORD, freshIp());
    assertError(locked, 429, 'rate_limited');
    const wait = Number(locked.headers.get('retry-after'));
    assert.ok(wait >= 1 && wait <= 4, `Retry-After ${wait}: at most the 4 s lockout`);

    await sleep(wait * 1000 + 200);
    // Still within the window: the next failure locks again, for twice as long.
    assertError(await attempt(email.toUpperCase(), 'wrong again', freshIp()), 401, 'invalid_credentials');
    const doubled = await attempt(` ${email} `, PASSWORD, freshIp());
    assertError(doubled, 429, 'rate_limited');
    const doubledWait = Number(doubled.headers.get('retry-after'));
    assert.ok(doubledWait > 4 && doubledWait <= 8, `Retry-After ${doubledWait}: the lockout doubled to 8 s`);

    await sleep(doubledWait * 1000 + 200);
    assert.equal((await attempt(email, PASSWORD, freshIp())).status, 200);
    // The success reset the count: four more failures do not lock.
    for (let i = 0; i < 4; i++) assertError(await attempt(email, 'wrong password', freshIp()), 401, 'invalid_credentials');
    assert.equal((await attempt(email, PASSWORD, freshIp())).status, 200);
  });

  it('parallel guesses cannot slip in under the limit: of 20 at once for one e-mail, 5 are checked and 15 refused', async () => {
    const email = await newUser();
    const results = await Promise.all(Array.from({ length: 20 }, () => attempt(email, 'parallel guess', freshIp())));
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [...Array(5).fill(401), ...Array(15).fill(429)]);
  });

  it('an e-mail with no account is locked the same way, so the lockout tells nothing', async () => {
    const email = `nobody-${unique()}@example.test`;
    for (let i = 0; i < 5; i++) assertError(await attempt(email, 'guess', freshIp()), 401, 'invalid_credentials');
    const locked = await attempt(email, 'guess', freshIp());
    assertError(locked, 429, 'rate_limited');
    assert.ok(Number(locked.headers.get('retry-after')) >= 1);
  });

  it('an IP is refused after its failure limit, for any e-mail; other IPs and successes are not counted against it', async () => {
    const email = await newUser();
    const ip = freshIp();
    // Successes do not count towards the per-IP limit.
    for (let i = 0; i < 5; i++) assert.equal((await attempt(email, PASSWORD, ip)).status, 200);
    for (let i = 0; i < 4; i++) assertError(await attempt(`nobody-${unique()}@example.test`, 'guess', ip), 401, 'invalid_credentials');

    const refused = await attempt(email, PASSWORD, ip);
    assertError(refused, 429, 'rate_limited');
    const wait = Number(refused.headers.get('retry-after'));
    assert.ok(wait > 800 && wait <= 900, `Retry-After ${wait}: the rest of the 15-minute window`);
    assert.equal((await attempt(email, PASSWORD, freshIp())).status, 200);
  });
});

describe('password hashes', () => {
  it('a user stored with a legacy scrypt hash logs in, and the hash is then argon2id', async () => {
    const email = await newUser('temporary password');
    const salt = randomBytes(16);
    const legacy = ['scrypt', 16384, 8, 1, salt.toString('base64url'), scryptSync(PASSWORD, salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64url')].join('$');
    const db = createDb<any>(createPool({ url: testEnv().databaseUrl, applicationName: 'login-test', max: 1 }));
    const storedHash = async () => (await db.selectFrom('identity.users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow()).password_hash as string;
    try {
      await db.updateTable('identity.users').set({ password_hash: legacy }).where('email', '=', email).execute();

      assertError(await call('POST', '/auth/login', { body: { email, password: 'not it' } }), 401, 'invalid_credentials');
      assert.equal(await storedHash(), legacy, 'a failed login changes nothing');

      assert.equal((await call('POST', '/auth/login', { body: { email, password: PASSWORD } })).status, 200);
      assert.match(await storedHash(), /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      assert.equal((await call('POST', '/auth/login', { body: { email, password: PASSWORD } })).status, 200);
    } finally {
      await db.destroy();
    }
  });

  it('new users are stored with argon2id (m = 19 MiB, t = 2, p = 1)', async () => {
    const email = await newUser();
    const db = createDb<any>(createPool({ url: testEnv().databaseUrl, applicationName: 'login-test', max: 1 }));
    try {
      const row = await db.selectFrom('identity.users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow();
      assert.match(row.password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    } finally {
      await db.destroy();
    }
  });
});
