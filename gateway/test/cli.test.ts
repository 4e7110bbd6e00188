import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { call } from '@hireloop/devstack/testing';
import { ROOT } from '@hireloop/devstack/paths';

const run = promisify(execFile);
const cli = (name: 'orgs' | 'keys' | 'users', ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', join(ROOT, `services/identity/src/cli/${name}.ts`), ...args], { cwd: ROOT, env: process.env });

describe('the orgs, keys and users CLIs (headless set-ups)', () => {
  it('create an organization, a key for it, list it and revoke it; the key works until revoked', async () => {
    const org = (await cli('orgs', 'create', '--name', 'CLI Test Co')).stdout.trim();
    assert.match(org, /^org_[0-9A-Za-z]+$/);
    const key = (await cli('keys', 'create', '--name', 'ci sync', '--scopes', 'read,write', '--org', org, '--rate-limit', '600')).stdout.trim();
    assert.match(key, /^hl_[0-9A-Za-z]{38}$/);
    const me = await call('GET', '/api/v1/me', { key });
    assert.equal(me.body.data.organization.id, org);
    assert.deepEqual(me.body.data.scopes, ['read', 'write']);
    assert.equal(me.headers.get('x-ratelimit-limit'), '600');

    const listed = (await cli('keys', 'list', '--org', org)).stdout;
    const row = listed.split('\n').find((l) => l.includes(key.slice(0, 11)))!;
    assert.ok(row, listed);
    assert.ok(!listed.includes(key.slice(11)), 'the key value is never listed');
    const keyId = row.split('\t')[0]!;
    assert.match((await cli('keys', 'revoke', keyId)).stdout, /revoked key_/);
    assert.equal((await call('GET', '/api/v1/me', { key })).body.error.code, 'revoked_api_key');
  });

  it('defaults to the demo organization and refuses bad input with a usage message', async () => {
    const key = (await cli('keys', 'create', '--name', 'demo key', '--scopes', 'read')).stdout.trim();
    assert.equal((await call('GET', '/api/v1/me', { key })).body.data.organization.id, process.env['TEST_DEMO_ORG_ID']);
    const nobody = `org_${'0'.repeat(22)}`;
    for (const args of [['create', '--name', 'x'], ['create', '--name', 'x', '--scopes', 'root'], ['create', '--nmae', 'x'], ['frobnicate'], ['list', '--org', nobody], ['create', '--name', 'x', '--scopes', 'read', '--org', nobody]]) {
      await assert.rejects(cli('keys', ...args), (err: { code: number; stderr: string }) => err.code !== 0 && /error/.test(err.stderr), args.join(' '));
    }
  });

  it('users create makes a console user who can log in; a second user with the same e-mail is refused', async () => {
    const org = (await cli('orgs', 'create', '--name', 'CLI Users Co')).stdout.trim();
    const email = `cli-${Date.now().toString(36)}@example.test`;
    const id = (await cli('users', 'create', '--email', email, '--password', 'a long password', '--org', org)).stdout.trim();
    assert.match(id, /^usr_[0-9A-Za-z]+$/);
    const login = await call('POST', '/auth/login', { body: { email, password: 'a long password' } });
    assert.equal(login.status, 200, login.text);
    assert.equal(login.body.data.user.organization.id, org);
    await assert.rejects(cli('users', 'create', '--email', email.toUpperCase(), '--password', 'another password'), (err: { code: number; stderr: string }) => err.code !== 0 && /already exists/.test(err.stderr));
    await assert.rejects(cli('users', 'create', '--email', email), (err: { code: number; stderr: string }) => err.code === 2 && /--password/.test(err.stderr));
  });
});
