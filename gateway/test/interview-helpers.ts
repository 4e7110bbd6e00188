import assert from 'node:assert/strict';
import { call, testEnv } from '@hireloop/devstack/testing';
import { AI_NOTICE_VERSION } from '@hireloop/recruiting/interviews/ai-notice';

/** Shared steps of the interview tests: a position, a scheduled interview, the candidate's forms. */
export async function newPosition(key: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/v1/positions', { key, body: { title: 'Backend Engineer', interviewQuestions: ['Why us?', 'Hardest bug?'], ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body.data as { id: string; title: string };
}

let seq = 0;
export function uniqueEmail(tag = 'cand') {
  return `${tag}-${Date.now()}-${seq++}@example.com`;
}

export async function schedule(key: string, positionId: string, extra: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/v1/interviews', { key, body: { positionId, candidate: { email: uniqueEmail(), name: 'Ada Lovelace' }, ...extra } });
  assert.equal(res.status, 201, res.text);
  return res.body.data as { id: string; inviteUrl: string; status: string; candidate: { id: string; email: string } };
}

export function tokenOf(inviteUrl: string): string {
  return new URL(inviteUrl).pathname.split('/').pop()!;
}

/** What the candidate's browser sends: a plain form POST, then follows the 303. */
export async function postForm(path: string, fields: [string, string][] = []) {
  const res = await fetch(`${testEnv().gatewayUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), requestId: res.headers.get('x-request-id'), text: await res.text() };
}

/** "I agree, start": the consent the start form carries, with the current notice's version. */
export const startInvite = (token: string) => postForm(`/i/${token}/start`, [['consent', 'agree'], ['notice', AI_NOTICE_VERSION]]);
export const declineInvite = (token: string) => postForm(`/i/${token}/decline`);
export const submitInvite = (token: string, answers: string[]) => postForm(`/i/${token}/submit`, answers.map((a) => ['answer', a]));
