import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { call, eventually } from '@hireloop/devstack/testing';
import { startReceiver } from './webhook-receiver.js';
import { assertNoOverflow, assertNoPageErrors, checkView, consoleSession, logIn, openPage, skipWithoutChromium, WIDTHS, type Width, waitForFocus } from './console-helpers.js';
import { unique } from './api-assertions.js';

// Issue 10, journey 3: make a flow in the console, enroll a candidate on its pipeline board, move
// them through it with the keyboard-accessible controls, and see `hiring_flow.candidate_moved`
// reach a webhook; at 1280 and 390 px, with no page overflow and no page error on any view.
describe('console: hiring flows and the pipeline board (journey 3)', { skip: skipWithoutChromium }, () => {
  const s = consoleSession(['read', 'write', 'admin']);
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    receiver = await startReceiver();
    const hook = await call('POST', '/api/v1/webhooks', { key: s.key, body: { url: receiver.url, events: ['hiring_flow.candidate_moved'] } });
    assert.equal(hook.status, 201, hook.text);
  });
  after(() => receiver?.close());

  async function newCandidate(label: string) {
    const res = await call('POST', '/api/v1/candidates', { key: s.key, body: { email: `${label}-${unique()}@example.com`, name: `${label} ${unique()}` } });
    assert.equal(res.status, 201, res.text);
    return res.body.data as { id: string; name: string; email: string };
  }

  /** The board column of a stage, found by its heading. */
  const column = (page: Page, stage: string) => page.locator('.board-column').filter({ has: page.getByRole('heading', { level: 3, name: new RegExp(`^${stage}`) }) });

  for (const width of [WIDTHS.desktop, WIDTHS.phone] as Width[]) {
    it(`at ${width} px: create a flow, enroll, move (by keyboard; by dragging on a laptop) and complete a candidate; the moves reach the webhook`, async () => {
      const view = await openPage(s.browser, width);
      const { page } = view;
      try {
        const candidate = await newCandidate(`Flow${width}`);
        await logIn(page, s.user, 'flows');
        // A flow id of nothing, well-formed or not: the not-found page with the way back.
        await checkView(view, `flows/flow_${'0'.repeat(22)}`, 'No such hiring flow');
        await checkView(view, `flows/flow_${'0'.repeat(22)}/edit`, 'No such hiring flow');
        await checkView(view, 'flows', 'Hiring flows');

        // The flow editor: a name and three stages, built with the row controls.
        await page.getByRole('link', { name: 'New flow' }).click();
        await page.getByRole('heading', { level: 1, name: 'New hiring flow' }).waitFor();
        await assertNoOverflow(page, `the flow editor at ${width} px`);
        const flowName = `Pipeline ${width} ${unique()}`;
        await page.getByLabel('Name', { exact: true }).fill(flowName);
        await page.getByLabel('Stage 1 name').fill('Phone screen');
        await page.getByRole('button', { name: 'Add a stage' }).click();
        await page.getByLabel('Stage 2 name').fill('Offer');
        await page.getByLabel('Stage 2 kind').selectOption('offer');
        await page.getByRole('button', { name: 'Add a stage' }).click();
        await page.getByLabel('Stage 3 name').fill('Team review');
        await page.getByLabel('Stage 3 kind').selectOption('review');
        await page.getByRole('button', { name: 'Move stage 3 up' }).click();
        assert.equal(await page.getByLabel('Stage 2 name').inputValue(), 'Team review', 'the move reorders the rows');
        await page.getByRole('button', { name: 'Create flow' }).click();

        // The board: one column per stage, in order.
        await page.getByRole('heading', { level: 1, name: flowName }).waitFor();
        await page.getByText(`Created the flow “${flowName}”.`).waitFor();
        const headings = await page.locator('.board-column h3').allInnerTexts();
        assert.deepEqual(headings.map((h) => h.split(/\s+(Screen|Review|Offer)$/)[0]!.trim()), ['Phone screen', 'Team review', 'Offer']);
        const flowId = new URL(page.url()).pathname.split('/').at(-1)!;
        assert.match(flowId, /^flow_/);

        // Enroll the candidate, found by name.
        await page.getByLabel('Find a candidate').fill(candidate.name);
        await page.getByRole('button', { name: 'Search' }).click();
        await page.getByRole('button', { name: `Enroll ${candidate.name}` }).click();
        await page.getByText(`${candidate.name} enrolled in Phone screen.`).waitFor();
        const card = (stage: string) => column(page, stage).getByRole('article', { name: candidate.name });
        await card('Phone screen').waitFor();
        const enroll = page.getByRole('button', { name: `Enroll ${candidate.name}` });
        await enroll.focus();
        await page.keyboard.press('Enter');
        await page.getByRole('alert').getByText(`${candidate.name} is already in this flow.`).waitFor();
        await waitForFocus(page, enroll, 'after a refused enrollment');

        // Someone new: enrolled by e-mail and name, created on the way.
        const newcomer = { email: `new-${width}-${unique()}@example.com`, name: `Newcomer ${unique()}` };
        await page.getByText('Someone new').click();
        // A new attempt clears the last refusal: it does not stay beside the form's own errors.
        await page.getByRole('button', { name: 'Enroll new candidate' }).click();
        await page.locator('.enroll-new [aria-invalid="true"]').first().waitFor();
        assert.equal(await page.getByText(`${candidate.name} is already in this flow.`).count(), 0, 'the old refusal is gone');
        await page.getByLabel('E-mail').fill(newcomer.email);
        await page.getByLabel('Name', { exact: true }).fill(newcomer.name);
        await page.getByRole('button', { name: 'Enroll new candidate' }).click();
        await page.getByText(`${newcomer.name} enrolled in Phone screen.`).waitFor();
        await column(page, 'Phone screen').getByRole('article', { name: newcomer.name }).waitFor();
        const created = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(newcomer.email)}`, { key: s.key });
        assert.equal(created.body.data[0]?.name, newcomer.name);
        await assertNoOverflow(page, `the board with a card at ${width} px`);

        // Move with the card's own select and button, by keyboard: choose, Tab to Move, Enter.
        const select = card('Phone screen').getByLabel(`Move ${candidate.name} to`);
        await select.focus();
        await select.selectOption({ label: 'Team review' });
        await page.keyboard.press('Tab');
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), `Move ${candidate.name}`);
        await page.keyboard.press('Enter');
        await page.getByText(`${candidate.name} moved to Team review.`).waitFor();
        await card('Team review').waitFor();
        assert.equal(await card('Phone screen').count(), 0, 'the card left its old column');

        // On a laptop, dragging the card onto a column moves it too (pointer shortcut); on a phone, the select again.
        const last = 'Offer';
        if (width === WIDTHS.desktop) {
          await card('Team review').dragTo(column(page, 'Offer'));
        } else {
          await card('Team review').getByLabel(`Move ${candidate.name} to`).selectOption({ label: 'Offer' });
          await card('Team review').getByRole('button', { name: `Move ${candidate.name}` }).click();
        }
        await page.getByText(`${candidate.name} moved to Offer.`).waitFor();
        await card('Offer').waitFor();
        // A card in a column scrolled out of view widens nothing but the board (its hidden label text stays inside it).
        await assertNoOverflow(page, `the board with a card in the last column at ${width} px`);

        // Complete, after the confirmation; it leaves the active pipeline and shows under Completed.
        await card(last).getByRole('button', { name: `Complete ${candidate.name}` }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Complete' }).click();
        await page.getByText(`${candidate.name}: completed.`).waitFor();
        await column(page, last).getByText('Nobody here.').waitFor();
        await page.getByLabel('Show').selectOption('completed');
        await card(last).getByText('Completed').waitFor();
        assert.match(page.url(), /\?status=completed$/, 'the filter is in the URL');
        await assertNoOverflow(page, `the board at ${width} px`);

        // Every move reached the webhook, as the API shows them.
        const list = await call('GET', `/api/v1/hiring-flows/${flowId}/candidates?status=completed`, { key: s.key });
        assert.equal(list.status, 200, list.text);
        const enrollment = list.body.data[0] as { id: string; candidateId: string };
        assert.equal(enrollment.candidateId, candidate.id);
        const flow = (await call('GET', `/api/v1/hiring-flows/${flowId}`, { key: s.key })).body.data as { stages: { id: string; name: string }[] };
        const stageId = (name: string) => flow.stages.find((s) => s.name === name)!.id;
        const expected = [`${stageId('Team review')} active`, ...(last === 'Offer' ? [`${stageId('Offer')} active`] : []), `${stageId(last)} completed`];
        const moved = await eventually(async () => receiver.of('hiring_flow.candidate_moved').filter((r) => r.event.data.id === enrollment.id), (r) => r.length >= expected.length, 30_000);
        assert.deepEqual(moved.map((r) => `${r.event.data.stageId} ${r.event.data.status}`).sort(), expected.sort());

        // The editor of the existing flow opens with its stages.
        await page.getByRole('link', { name: 'Edit flow' }).click();
        await page.getByRole('heading', { level: 1, name: `Edit “${flowName}”` }).waitFor();
        assert.equal(await page.getByLabel('Stage 3 name').inputValue(), 'Offer');
        await assertNoOverflow(page, `the flow editor (edit) at ${width} px`);
        assertNoPageErrors(view.errors, `the flows views at ${width} px`);
      } finally {
        await view.close();
      }
    });
  }
});
