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

/** What the candidate's browser sends: a plain form POST (to the stack's gateway, or to `base`); the 303 is not followed. */
export async function postForm(path: string, fields: [string, string][] = [], base = testEnv().gatewayUrl) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), requestId: res.headers.get('x-request-id'), text: await res.text() };
}

/** "I agree, start": the consent the start form carries, with the current notice's version. */
export const startInvite = (token: string, base?: string) => postForm(`/i/${token}/start`, [['consent', 'agree'], ['notice', AI_NOTICE_VERSION]], base);
export const declineInvite = (token: string) => postForm(`/i/${token}/decline`);

/** The turn the invite page shows: the answer form's key (`turn`), its kind and its question. */
export interface PageTurn {
  id: string;
  kind: 'question' | 'follow_up';
  text: string;
}

const unescapeHtml = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');

/** The turn in a page's HTML, or null when it shows none (not started, ended, or the notice). */
export function turnOf(html: string): PageTurn | null {
  const id = html.match(/name="turn" value="([^"]+)"/)?.[1];
  const heading = html.match(/<h2 class="turn" id="turn-text"[^>]*>(.*?)<\/h2>/s)?.[1];
  if (!id || heading === undefined) return null;
  const followUp = heading.includes('class="kind"');
  return { id: unescapeHtml(id), kind: followUp ? 'follow_up' : 'question', text: unescapeHtml(heading.replace(/<span class="kind">.*?<\/span>/s, '')) };
}

/** The invite page as the candidate opens it. */
export async function openInvite(token: string, base = testEnv().gatewayUrl) {
  const res = await fetch(`${base}/i/${token}`, { redirect: 'manual' });
  const html = await res.text();
  return { status: res.status, html, turn: turnOf(html) };
}

/** One answer to a turn, as the page's form posts it (JavaScript off). */
export const answerTurn = (token: string, turnId: string, answer: string, extra: [string, string][] = [], base?: string) =>
  postForm(`/i/${token}/answer`, [['turn', turnId], ['answer', answer], ...extra], base);

/** A full answer to a follow-up: long enough that the offline interviewer asks no further one. */
export const FOLLOW_UP_ANSWER = 'For example, last spring I traced a failing release myself, compared two fixes with the team, shipped the safer one and measured fewer incidents afterwards.';

/**
 * Takes the interview as a candidate without JavaScript would: one form post per turn, the
 * scripted `answers` in order from the current question on, and `followUpAnswer` to any
 * follow-up. Returns the last post's response (303 when every answer was stored), or the first
 * refusal: a page with no turn to answer (409), or no answer left to give (422). `base`: another
 * gateway than the stack's.
 */
export async function submitInvite(token: string, answers: string[], followUpAnswer = FOLLOW_UP_ANSWER, base?: string) {
  let next = 0;
  let last: Awaited<ReturnType<typeof postForm>> | undefined;
  for (let step = 0; step < 200; step++) {
    const { turn } = await openInvite(token, base);
    if (!turn) return last ?? answerTurn(token, '', answers[0] ?? 'An answer.', [], base);
    const answer = turn.kind === 'follow_up' ? followUpAnswer : answers[next++];
    last = await answerTurn(token, turn.id, answer ?? '', [], base);
    if (last.status !== 303) return last;
  }
  throw new Error('the interview did not end within 200 turns');
}
