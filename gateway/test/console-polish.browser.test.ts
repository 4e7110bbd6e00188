import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { call, newKey, startTestServer, testIdentity } from '@hireloop/devstack/testing';
import { consoleSession, logIn, openPage, openView, skipWithoutChromium, WIDTHS } from './console-helpers.js';
import { newPosition, schedule } from './interview-helpers.js';

/**
 * Issue 18 item 11, as a recruiter sees it: the console opens on Candidates after login, and at
 * 1280 px no table cell breaks a word ("Revok / e", "revoke / d" and key prefixes wrapped mid-word).
 */
describe('console polish, as a recruiter sees it (issue 18 item 11)', { skip: skipWithoutChromium }, () => {
  const session = consoleSession(['read', 'write', 'admin']);
  let receiver: Awaited<ReturnType<typeof startTestServer>> | undefined;

  before(async () => {
    // Something in every table: a position, an interview (and its candidate), an active and a revoked key.
    const position = await newPosition(session.key, { title: 'Senior Platform Engineer', department: 'Infrastructure', location: 'Remote (Europe)' });
    await schedule(session.key, position.id);
    const revoked = await newKey(session.user.organizationId, ['read'], 600);
    await testIdentity().system.apiKeys.revokeAnywhere.mutate({ id: revoked.keyId });
    receiver = await startTestServer(() => ({ status: 204 }));
    const webhook = await call('POST', '/api/v1/webhooks', { key: session.key, body: { url: `${receiver.url}/console-polish`, events: ['candidate.created', 'interview.completed'] } });
    assert.equal(webhook.status, 201, webhook.text);
  });
  after(() => receiver?.close());

  it('a full load of a view logs no warning (React Router\'s "No HydrateFallback element" on every lazy route)', async () => {
    const view = await openPage(session.browser);
    try {
      await logIn(view.page, session.user, 'candidates');
      for (const path of ['positions', 'interviews', 'audit']) await openView(view.page, path);
      await view.page.reload();
      await view.page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      assert.deepEqual(view.warnings, [], 'console warnings on full loads');
      assert.deepEqual(view.errors, []);
    } finally {
      await view.close();
    }
  });

  it('after login the console opens on Candidates, not API keys', async () => {
    const { page, context } = await openPage(session.browser);
    try {
      await logIn(page, session.user);
      await page.getByRole('heading', { level: 1, name: 'Candidates' }).waitFor();
      assert.match(new URL(page.url()).pathname, /^\/console\/candidates\/?$/);
    } finally {
      await context.close();
    }
  });

  it('at 1280 px no table cell breaks a word', async () => {
    const { page, context } = await openPage(session.browser, WIDTHS.desktop);
    try {
      await logIn(page, session.user);
      for (const [path, heading] of [['keys', 'API keys'], ['candidates', 'Candidates'], ['positions', 'Positions'], ['interviews', 'Interviews'], ['webhooks', 'Webhooks'], ['audit', 'Audit log']] as const) {
        await openView(page, path, heading);
        await page.locator('table.data-table tbody tr').first().waitFor();
        // A word (between spaces, hyphens and slashes, where a line may break) whose glyphs sit on two lines.
        const broken = await page.evaluate(() => {
          const found: string[] = [];
          for (const cell of Array.from(document.querySelectorAll('table.data-table td'))) {
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const text = node.textContent ?? '';
              for (const word of text.matchAll(/[^\s\-–—/]+/g)) {
                // Longer tokens (a URL, an e-mail address) may have to wrap inside their cell.
                if (word[0].length > 24) continue;
                const range = document.createRange();
                range.setStart(node, word.index);
                range.setEnd(node, word.index + word[0].length);
                const lines = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.bottom)));
                if (lines.size > 1) found.push(word[0]);
              }
            }
          }
          return found;
        });
        assert.deepEqual(broken, [], `/console/${path} at 1280 px breaks these words`);
      }
    } finally {
      await context.close();
    }
  });
});
