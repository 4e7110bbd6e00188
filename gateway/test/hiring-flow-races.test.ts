import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { call, newOrganizationWithKey, testRecruiting } from '@hireloop/devstack/testing';
import type { FlowInput } from '@hireloop/contracts';
import { newPosition, uniqueEmail } from './interview-helpers.js';
import { unique } from './api-assertions.js';

// PRODUCT.md §3 ("A 500 is a bug"), §7 Hiring flow and Candidate erase; CLARIFICATIONS "Bad input
// gets a 4xx on every surface". Requests a console and an ATS send at the same time: saving a
// flow's stages while candidates are enrolled, a double-click on Save, an enrolment racing the
// candidate's erasure, and stage mappings saved twice. Each outcome is one of the documented
// answers; none is a 500 or a 422 blaming a body that was right.

type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;

const times = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));
const enroll = (key: string, flowId: string, body: unknown) => call('POST', `/api/v1/hiring-flows/${flowId}/candidates`, { key, body });
/** A console call's outcome: 'ok', or the tRPC error's HTTP status. */
const outcome = (p: Promise<unknown>) => p.then(() => 'ok' as const, (err: { data?: { httpStatus?: number } }) => err.data?.httpStatus ?? 0);

describe('hiring flows under concurrent requests', () => {
  let org: Org;
  let positionId: string;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin'], 6000);
    positionId = (await newPosition(org.key)).id;
  });
  const flows = () => testRecruiting().forOrganization(org.organization.id).flows;
  const twoStages = (tag: string): FlowInput => ({ name: `Flow ${tag}`, positionId, stages: [{ name: `Screen ${tag}`, kind: 'screen' }, { name: `Offer ${tag}`, kind: 'offer' }] });
  const candidate = async () => (await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('race'), name: 'Ada Race' } })).body.data as { id: string; email: string };

  it('saving new stages while candidates are enrolled: every enrolment is 201 on the stages that stand, and the save is 200 or 409, never a 500', async () => {
    for (let round = 0; round < 4; round++) {
      const flow = await flows().create.mutate({ ...twoStages(`a${round}`), stages: [{ name: 'AI', kind: 'ai_interview' }, { name: 'Offer', kind: 'offer' }] });
      const people = await times(10, () => candidate());
      const [saved, ...enrolled] = await Promise.all([
        outcome(flows().update.mutate({ id: flow.id, flow: twoStages(`b${round}`) })),
        ...people.map((p, i) => sleep(i * 2).then(() => enroll(org.key, flow.id, { candidateId: p.id }))),
      ]);
      assert.ok(saved === 'ok' || saved === 409, `the save: ${saved}`);
      assert.deepEqual(enrolled.map((r) => r.status), people.map(() => 201), enrolled.map((r) => r.text).join('\n'));
      const stages = new Set((await flows().get.query({ id: flow.id })).stages.map((s) => s.id));
      for (const r of enrolled) assert.ok(stages.has(r.body.data.stageId), 'enrolled in a stage the flow has');
    }
  });

  it('the same save sent several times at once (a double click) is 200 each time', async () => {
    for (let round = 0; round < 4; round++) {
      const flow = await flows().create.mutate(twoStages(`c${round}`));
      const next = twoStages(`d${round}`);
      assert.deepEqual(await times(4, () => outcome(flows().update.mutate({ id: flow.id, flow: next }))), ['ok', 'ok', 'ok', 'ok']);
      assert.deepEqual((await flows().get.query({ id: flow.id })).stages.map((s) => s.name), next.stages.map((s) => s.name));
    }
  });

  it('an enrolment racing the candidate\'s erasure is 201, 409 or 404 by id, and 201 or 409 by e-mail with a name; never a 422 or a 500', async () => {
    // A flow per request: each is the candidate's first enrolment there, which schedules its AI
    // interview, so every request is inside the window the erasure can cut.
    const aiFirst = await times(12, (i) => flows().create.mutate({ ...twoStages(`e${i}${unique()}`), stages: [{ name: 'AI', kind: 'ai_interview' }, { name: 'Offer', kind: 'offer' }] }));
    for (let round = 0; round < 6; round++) {
      const person = await candidate();
      const [erased, ...enrolled] = await Promise.all([
        sleep(5).then(() => call('DELETE', `/api/v1/candidates/${person.id}`, { key: org.key })),
        ...aiFirst.map((flow, i) => sleep(i).then(() => enroll(org.key, flow.id, i % 2 ? { candidateId: person.id } : { candidate: { email: person.email, name: 'Ada Race' } }))),
      ]);
      assert.equal(erased.status, 202, erased.text);
      enrolled.forEach((r, i) => {
        const allowed = i % 2 ? [201, 404, 409] : [201, 409];
        assert.ok(allowed.includes(r.status), `${i % 2 ? 'by id' : 'by e-mail'}: ${r.status} ${r.text}`);
      });
    }
  });

  it('stage mappings saved at once by two people end as one of their lists, never a mix', async () => {
    const ats = testRecruiting().forOrganization(org.organization.id).ats;
    const source = `race${unique()}`.slice(0, 50);
    await ats.setStageMappings.mutate({ source, stages: ['initial'] });
    const lists = Array.from({ length: 8 }, (_, i) => [`only ${i}`, 'shared']);
    assert.deepEqual(await times(lists.length, (i) => outcome(ats.setStageMappings.mutate({ source, stages: lists[i]! }))), lists.map(() => 'ok'));
    const stored = (await ats.stageMappings.query()).items.find((m) => m.source === source)!.stages;
    assert.ok(lists.some((l) => JSON.stringify([...l].sort()) === JSON.stringify([...stored].sort())), `stored ${JSON.stringify(stored)}`);
  });
});
