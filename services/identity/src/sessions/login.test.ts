import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createDb, createPool, type AppError } from '@hireloop/platform';
import type { IdentityDB } from '../db.js';
import { createUser } from '../users/users.queries.js';
import { login, type LoginDeps } from './sessions.queries.js';
import { passwords, type Passwords } from './passwords.js';

// Runs against the test stack's Postgres (npm test sets DATABASE_URL and TEST_DEMO_ORG_ID).
const db = createDb<IdentityDB>(createPool({ url: process.env['DATABASE_URL']!, applicationName: 'identity-login-test', max: 2 }));
after(() => db.destroy());

/** The real password functions, recording which stored hash each verification ran against. */
function watchedPasswords(): Passwords & { verified: string[] } {
  const verified: string[] = [];
  return { ...passwords, verified, verify: (password, stored) => (verified.push(stored), passwords.verify(password, stored)) };
}

const deps = (p: Passwords): LoginDeps => ({
  ttlHours: 1,
  passwords: p,
  throttle: { maxFailuresPerEmail: 1000, maxFailuresPerIp: 1000, windowSeconds: 900, lockoutSeconds: 30, maxLockoutSeconds: 900 },
});
const suffix = () => Math.random().toString(36).slice(2, 10);
const PHC_PARAMS = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/;

describe('login does the same hashing work for an unknown e-mail as for a wrong password', () => {
  it('an unknown e-mail runs one argon2id verification with the parameters of a real hash', async () => {
    const watched = watchedPasswords();
    await assert.rejects(login(db, deps(watched), { email: `nobody-${suffix()}@example.test`, password: 'guess', ip: null }), (err: AppError) => err.code === 'invalid_credentials');
    assert.equal(watched.verified.length, 1);
    assert.match(watched.verified[0]!, PHC_PARAMS);
    assert.equal(passwords.needsRehash(watched.verified[0]!), false);
  });

  it('a wrong password for a known e-mail runs the same single verification', async () => {
    const email = `known-${suffix()}@example.test`;
    await createUser(db, process.env['TEST_DEMO_ORG_ID']!, { email, name: 'Known', password: 'the real password' });
    const watched = watchedPasswords();
    await assert.rejects(login(db, deps(watched), { email, password: 'guess', ip: null }), (err: AppError) => err.code === 'invalid_credentials');
    assert.equal(watched.verified.length, 1);
    assert.match(watched.verified[0]!, PHC_PARAMS);
  });
});
