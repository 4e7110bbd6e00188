import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { idsOnly, redactEvent } from './redaction.js';

describe('event redaction for erasure', () => {
  it('keeps type, time and the ids in data, in their nesting, and marks the data redacted', () => {
    const event = {
      id: 'evt_1',
      type: 'interview.scheduled',
      createdAt: '2026-11-22T10:00:00.000Z',
      data: {
        id: 'int_1',
        title: 'Backend Engineer interview',
        candidate: { id: 'cand_1', email: 'ada@example.com', name: 'Ada Lovelace' },
        positionId: 'pos_1',
        inviteUrl: { sealedInviteToken: 'v1:abc' },
        consent: null,
        duration: 30,
      },
    };
    assert.deepEqual(redactEvent(event), {
      id: 'evt_1',
      type: 'interview.scheduled',
      createdAt: '2026-11-22T10:00:00.000Z',
      data: { id: 'int_1', candidate: { id: 'cand_1' }, positionId: 'pos_1', redacted: true },
    });
  });

  it('drops externalId (a client may put an e-mail there), text in arrays, and objects left empty', () => {
    assert.deepEqual(
      idsOnly({ id: 'cand_1', externalId: 'ada@example.com', metadata: { note: 'x' }, answers: [{ question: 'Why?', answer: 'Because' }], items: [{ interviewId: 'int_1', text: 'y' }] }),
      { id: 'cand_1', items: [{ interviewId: 'int_1' }] },
    );
    assert.deepEqual(redactEvent({ id: 'evt_2', type: 'evaluation.completed', createdAt: 't', data: { summary: 'text' } }).data, { redacted: true });
  });

  it('is stable: redacting a redacted event changes nothing', () => {
    const once = redactEvent({ id: 'evt_3', type: 'candidate.updated', createdAt: 't', data: { id: 'cand_1', name: 'Ada' } });
    assert.deepEqual(redactEvent(once), once);
  });
});
