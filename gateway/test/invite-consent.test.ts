import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { call, eventually, newOrganizationWithKey, testEnv } from '@hireloop/devstack/testing';
import { AI_NOTICE_VERSION } from '@hireloop/recruiting/interviews/ai-notice';
import { declineInvite, newPosition, postForm, schedule, startInvite, submitInvite, tokenOf } from './interview-helpers.js';

// Notice and consent on the invite page (PRODUCT.md §10): no start or answer without consent;
// declining asks for a human alternative.
let db: pg.Client;
before(async () => {
  db = new pg.Client({ connectionString: testEnv().databaseUrl });
  await db.connect();
});
after(() => db.end());

describe('invite page: AI notice and consent', () => {
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  let positionId: string;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write']);
    positionId = (await newPosition(org.key)).id;
  });
  const get = async (id: string) => (await call('GET', `/api/v1/interviews/${id}`, { key: org.key })).body.data;

  it('shows the versioned notice with the retention and the organization as contact, and both choices', async () => {
    const i = await schedule(org.key, positionId);
    const res = await fetch(i.inviteUrl.replace(/^https?:\/\/[^/]+/, testEnv().gatewayUrl));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /id="ai-notice"/);
    assert.match(html, /365 days/);
    assert.ok(html.includes(AI_NOTICE_VERSION), 'the notice version is on the page');
    const organization = (await call('GET', '/api/v1/me', { key: org.key })).body.data.organization.name as string;
    assert.ok(html.includes(organization.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)), 'the organization is the contact');
    assert.match(html, /name="consent" value="agree"/);
    assert.match(html, /action="\/i\/[^"]+\/decline"/);
    assert.doesNotMatch(html, /<script/i);
  });

  it('refuses a start without the consent field, and a submit without recorded consent (4xx pages)', async () => {
    const i = await schedule(org.key, positionId);
    const token = tokenOf(i.inviteUrl);
    const bare = await postForm(`/i/${token}/start`);
    assert.equal(bare.status, 422, 'no consent field');
    assert.match(bare.text, /role="alert"/);
    const noVersion = await postForm(`/i/${token}/start`, [['consent', 'agree']]);
    assert.equal(noVersion.status, 422, 'consent without the notice version');
    const stale = await postForm(`/i/${token}/start`, [['consent', 'agree'], ['notice', 'ai-notice-1999-01']]);
    assert.equal(stale.status, 303, 'an old notice: the page shows the current one again');
    assert.equal((await get(i.id)).status, 'scheduled');
    assert.equal((await get(i.id)).consent, null);
    assert.equal((await submitInvite(token, ['a', 'b'])).status, 409, 'no answers without consent');

    // An interview started before consent existed: its answers are refused until the candidate agrees.
    await db.query(`update recruiting.interviews set status = 'in_progress', started_at = now() where id = $1`, [i.id]);
    const refused = await submitInvite(token, ['a', 'b']);
    assert.equal(refused.status, 409);
    assert.match(refused.text, /id="ai-notice"/, 'the page asks for consent again');
    assert.equal((await get(i.id)).status, 'in_progress');
    assert.equal((await startInvite(token)).status, 303);
    assert.equal((await get(i.id)).consent?.noticeVersion, AI_NOTICE_VERSION);
    assert.equal((await submitInvite(token, ['a', 'b'])).status, 303);
    assert.equal((await get(i.id)).status, 'completed');
  });

  it('"I agree, start" records consent with its notice version and starts', async () => {
    const i = await schedule(org.key, positionId);
    assert.equal((await get(i.id)).consent, null);
    const before = Date.now();
    assert.equal((await startInvite(tokenOf(i.inviteUrl))).status, 303);
    const started = await get(i.id);
    assert.equal(started.status, 'in_progress');
    assert.equal(started.consent.noticeVersion, AI_NOTICE_VERSION);
    assert.ok(Date.parse(started.consent.givenAt) >= before - 5000);
    assert.equal(started.declinedAt, null);
    assert.equal((await declineInvite(tokenOf(i.inviteUrl))).status, 303, 'a started interview cannot be declined: the page shows it');
    assert.equal((await get(i.id)).status, 'in_progress');
  });

  it('declining: declined with declinedAt, interview.declined, 409 on cancel and evaluation, no start or answers', async () => {
    const i = await schedule(org.key, positionId);
    const token = tokenOf(i.inviteUrl);
    const res = await declineInvite(token);
    assert.equal(res.status, 303);
    const page = await fetch(`${testEnv().gatewayUrl}${res.location}`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /alternative with a person/);
    const declined = await get(i.id);
    assert.equal(declined.status, 'declined');
    assert.ok(declined.declinedAt);
    assert.equal(declined.consent, null);
    assert.equal((await declineInvite(token)).status, 303, 'declining twice is harmless');

    const cancel = await call('DELETE', `/api/v1/interviews/${i.id}`, { key: org.key });
    assert.equal(cancel.status, 409, cancel.text);
    assert.equal(cancel.body.error.code, 'interview_not_cancellable');
    const evaluation = await call('GET', `/api/v1/interviews/${i.id}/evaluation`, { key: org.key });
    assert.equal(evaluation.status, 409, evaluation.text);
    assert.equal(evaluation.body.error.code, 'evaluation_unavailable');

    assert.equal((await startInvite(token)).status, 303);
    assert.equal((await submitInvite(token, ['a', 'b'])).status, 409);
    assert.equal((await get(i.id)).status, 'declined');

    const listed = await call('GET', `/api/v1/interviews?status=declined&positionId=${positionId}`, { key: org.key });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.data.map((x: { id: string }) => x.id), [i.id]);

    const event = await eventually(
      async () => ((await call('GET', '/api/v1/events?type=interview.declined', { key: org.key })).body.data as { type: string; data: { id: string; status: string } }[]).find((e) => e.data.id === i.id),
      (e) => e !== undefined,
      20_000,
    );
    assert.equal(event!.type, 'interview.declined');
    assert.equal(event!.data.status, 'declined');
  });
});
