import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { call, eventually, newKey, newOrganizationWithKey, testEnv, testRecruiting } from '@hireloop/devstack/testing';
import { assertValidation, unique } from './api-assertions.js';
import { newPosition, schedule, startInvite, submitInvite, tokenOf } from './interview-helpers.js';

// What the console's candidate views read from recruiting over tRPC (issue 10, Candidates): the
// list's `search` (word prefixes of name or e-mail; tRPC only, PRODUCT.md §5), and a candidate's
// evaluations and enrollments for the profile.

type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;
const newOrg = (): Promise<Org> => newOrganizationWithKey(['read', 'write'], 6000);
const recruitingOf = (org: Org) => testRecruiting().forOrganization(org.organization.id);

async function newCandidate(key: string, name: string, email: string) {
  const res = await call('POST', '/api/v1/candidates', { key, body: { name, email } });
  assert.equal(res.status, 201, res.text);
  return res.body.data as { id: string; name: string; email: string };
}

/** The ids a search finds, newest first, walking every page. */
async function searchAll(org: Org, search: string, limit = 100) {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await recruitingOf(org).candidates.list.query({ search, limit, cursor });
    ids.push(...page.items.map((c) => c.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

describe('candidates.list search (tRPC, the console)', () => {
  it('matches word prefixes of the name and the e-mail, case-insensitive; every word must match', async () => {
    const org = await newOrg();
    const tag = unique();
    const ann = await newCandidate(org.key, 'Ann Smith', `ann.smith+${tag}@Example.org`);
    const anna = await newCandidate(org.key, 'Anna Smithers', `anna-${tag}@corp.test`);
    const bob = await newCandidate(org.key, 'Bob Annan', `bob-${tag}@example.org`);

    assert.deepEqual(await searchAll(org, 'ann'), [bob.id, anna.id, ann.id], 'a word of the name begins with "ann" in all three');
    assert.deepEqual(await searchAll(org, 'SMITH'), [anna.id, ann.id], 'case-insensitive');
    assert.deepEqual(await searchAll(org, 'ann smi'), [anna.id, ann.id], 'every word must begin a word');
    assert.deepEqual(await searchAll(org, 'smithers anna'), [anna.id], 'in any order');
    assert.deepEqual(await searchAll(org, 'example.org'), [bob.id, ann.id], 'the e-mail\'s domain');
    assert.deepEqual(await searchAll(org, `ann.smith+${tag}@example.ORG`), [ann.id], 'a whole e-mail');
    assert.deepEqual(await searchAll(org, tag), [bob.id, anna.id, ann.id], 'a part of the e-mail after punctuation');
    assert.deepEqual(await searchAll(org, 'nn'), [], 'a prefix, not any substring');
    assert.deepEqual(await searchAll(org, ' @@ ! '), [], 'no letters or digits: nothing matches');
  });

  it('finds names in any script, with their accents', async () => {
    const org = await newOrg();
    const zoe = await newCandidate(org.key, 'Zoë Łukasz-O\'Brien', `zl-${unique()}@example.com`);
    const li = await newCandidate(org.key, '李小龙', `li-${unique()}@example.com`);
    assert.deepEqual(await searchAll(org, 'zoë'), [zoe.id]);
    assert.deepEqual(await searchAll(org, 'ŁUKASZ brien'), [zoe.id]);
    assert.deepEqual(await searchAll(org, "o'bri"), [zoe.id]);
    assert.deepEqual(await searchAll(org, '李小'), [li.id]);
  });

  it('sees only its own organization, combines with the other filters and pages with a cursor bound to the search', async () => {
    const [a, b] = [await newOrg(), await newOrg()];
    const word = `w${unique()}`;
    const before = new Date().toISOString();
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.unshift((await newCandidate(a.key, `Person ${i} ${word}`, `p${i}-${unique()}@example.com`)).id);
    const other = await newCandidate(b.key, `Other ${word}`, `other-${unique()}@example.com`);

    assert.deepEqual(await searchAll(a, word, 2), created, 'pages of 2, newest first, nothing twice');
    assert.deepEqual(await searchAll(b, word), [other.id]);
    const filtered = await recruitingOf(a).candidates.list.query({ search: word, createdAfter: before, limit: 25 });
    assert.deepEqual(filtered.items.map((c) => c.id), created);
    const none = await recruitingOf(a).candidates.list.query({ search: word, createdBefore: before, limit: 25 });
    assert.deepEqual(none.items, []);

    const first = await recruitingOf(a).candidates.list.query({ search: word, limit: 2 });
    assert.ok(first.nextCursor);
    await assert.rejects(recruitingOf(a).candidates.list.query({ search: `${word} person`, limit: 2, cursor: first.nextCursor }), (err: any) => {
      assert.equal(err?.data?.appCode, 'validation_failed', String(err));
      return true;
    });
  });

  it('the REST list does not take `search` (PRODUCT.md §5: unknown parameters are 422)', async () => {
    const org = await newOrg();
    assertValidation(await call('GET', '/api/v1/candidates?search=ann', { key: org.key }));
  });

  it('a candidate created through the REST API is found by the console session\'s search (journey 4, API half)', async () => {
    const env = testEnv();
    const { key } = await newKey(env.demoOrgId, ['write']);
    const name = `Journey ${unique()}`;
    const created = await newCandidate(key, name, `journey-${unique()}@example.com`);
    const login = await call('POST', '/auth/login', { body: { email: env.adminEmail, password: env.adminPassword } });
    assert.equal(login.status, 200, login.text);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const input = encodeURIComponent(JSON.stringify({ search: name.toLowerCase(), limit: 10 }));
    const res = await call('GET', `/trpc/recruiting/candidates.list?input=${input}`, { headers: { cookie } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.result.data.items.map((c: { id: string }) => c.id), [created.id]);
  });

  describe('the search index', () => {
    let db: pg.Client;
    before(async () => {
      db = new pg.Client({ connectionString: testEnv().databaseUrl });
      await db.connect();
    });
    after(() => db.end());

    it('the list\'s search condition can use candidates_search (the index and the query state the same expression)', async () => {
      // With sequential scans off the planner takes an index that matches the condition, if any;
      // this fails if the list's expression and the index's drift apart.
      await db.query('begin');
      try {
        await db.query('set local enable_seqscan = off');
        const plan = await db.query<{ 'QUERY PLAN': string }>(
          `explain select id from recruiting.candidates
           where recruiting.candidate_search_document(name, email) @@ recruiting.candidate_search_query($1)`,
          ['ann smi'],
        );
        assert.match(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), /Bitmap Index Scan on candidates_search/);
      } finally {
        await db.query('rollback');
      }
    });
  });
});

describe('evaluations.list (tRPC): a candidate\'s evaluations for the profile', () => {
  it('one per submitted interview, newest first; none for interviews not yet submitted', async () => {
    const org = await newOrg();
    const position = await newPosition(org.key);
    const first = await schedule(org.key, position.id);
    const email = first.candidate.email;
    const second = await schedule(org.key, position.id, { candidate: { email } });
    const open = await schedule(org.key, position.id, { candidate: { email } });
    for (const interview of [first, second]) {
      await startInvite(tokenOf(interview.inviteUrl));
      await submitInvite(tokenOf(interview.inviteUrl), ['Because of the product.', 'A race in a cache.']);
    }
    const recruiting = recruitingOf(org);
    const done = await eventually(
      () => recruiting.evaluations.list.query({ candidateId: first.candidate.id, limit: 25 }),
      (page) => page.items.length === 2 && page.items.every((e) => e.status === 'completed' || e.status === 'failed'),
    );
    assert.deepEqual(done.items.map((e) => e.interviewId), [second.id, first.id]);
    assert.ok(done.items.every((e) => e.status === 'completed'), JSON.stringify(done.items));
    assert.deepEqual(done.items[1], await recruiting.evaluations.get.query({ interviewId: first.id }), 'the same evaluation as the scorecard reads');
    assert.ok(!done.items.some((e) => e.interviewId === open.id));

    const page1 = await recruiting.evaluations.list.query({ candidateId: first.candidate.id, limit: 1 });
    assert.deepEqual(page1.items.map((e) => e.interviewId), [second.id]);
    const page2 = await recruiting.evaluations.list.query({ candidateId: first.candidate.id, limit: 1, cursor: page1.nextCursor! });
    assert.deepEqual(page2.items.map((e) => e.interviewId), [first.id]);
    assert.equal(page2.nextCursor, null);
  });

  it('an unknown candidate, or another organization\'s, is not_found; a candidate with no interview has none', async () => {
    const [a, b] = [await newOrg(), await newOrg()];
    const mine = await newCandidate(a.key, 'No Interviews', `none-${unique()}@example.com`);
    assert.deepEqual(await recruitingOf(a).evaluations.list.query({ candidateId: mine.id, limit: 25 }), { items: [], nextCursor: null });
    await assert.rejects(recruitingOf(b).evaluations.list.query({ candidateId: mine.id, limit: 25 }), (err: any) => {
      assert.equal(err?.data?.appCode, 'not_found', String(err));
      return true;
    });
  });
});

describe('flows.candidateEnrollments (tRPC): a candidate\'s enrollments for the profile', () => {
  it('every flow the candidate is in, newest first, with the flow\'s name and the current stage; pages', async () => {
    const org = await newOrg();
    const recruiting = recruitingOf(org);
    const candidate = await newCandidate(org.key, 'Flow Person', `flow-${unique()}@example.com`);
    const other = await newCandidate(org.key, 'Someone Else', `else-${unique()}@example.com`);
    const sales = await recruiting.flows.create.mutate({ name: 'Sales pipeline', stages: [{ name: 'Screen', kind: 'screen' }, { name: 'Offer', kind: 'offer' }] });
    const support = await recruiting.flows.create.mutate({ name: 'Support pipeline', stages: [{ name: 'Phone screen', kind: 'screen' }, { name: 'Review', kind: 'review' }] });
    const enroll = async (flowId: string, candidateId: string) => {
      const res = await call('POST', `/api/v1/hiring-flows/${flowId}/candidates`, { key: org.key, body: { candidateId } });
      assert.equal(res.status, 201, res.text);
      return res.body.data as { id: string };
    };
    const first = await enroll(sales.id, candidate.id);
    const second = await enroll(support.id, candidate.id);
    await enroll(sales.id, other.id);
    const moved = await call('PATCH', `/api/v1/hiring-flows/${sales.id}/candidates/${first.id}`, { key: org.key, body: { stageId: sales.stages[1]!.id } });
    assert.equal(moved.status, 200, moved.text);

    const page = await recruiting.flows.candidateEnrollments.query({ candidateId: candidate.id, limit: 25 });
    assert.deepEqual(page.items.map((e) => [e.id, e.flow.name, e.stage.name, e.stage.kind, e.status]), [
      [second.id, 'Support pipeline', 'Phone screen', 'screen', 'active'],
      [first.id, 'Sales pipeline', 'Offer', 'offer', 'active'],
    ]);
    assert.equal(page.items[1]!.movedAt, moved.body.data.movedAt);
    assert.equal(page.nextCursor, null);

    const one = await recruiting.flows.candidateEnrollments.query({ candidateId: candidate.id, limit: 1 });
    assert.deepEqual(one.items.map((e) => e.id), [second.id]);
    const two = await recruiting.flows.candidateEnrollments.query({ candidateId: candidate.id, limit: 1, cursor: one.nextCursor! });
    assert.deepEqual(two.items.map((e) => e.id), [first.id]);
    assert.equal(two.nextCursor, null);
  });

  it('another organization\'s candidate is not_found', async () => {
    const [a, b] = [await newOrg(), await newOrg()];
    const mine = await newCandidate(a.key, 'Not Yours', `ny-${unique()}@example.com`);
    assert.deepEqual(await recruitingOf(a).flows.candidateEnrollments.query({ candidateId: mine.id, limit: 25 }), { items: [], nextCursor: null });
    await assert.rejects(recruitingOf(b).flows.candidateEnrollments.query({ candidateId: mine.id, limit: 25 }), (err: any) => {
      assert.equal(err?.data?.appCode, 'not_found', String(err));
      return true;
    });
  });
});
