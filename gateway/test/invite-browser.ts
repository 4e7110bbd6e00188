// Helpers of the invite page's browser tests: the accessibility audit (axe-core through
// @axe-core/playwright) and keyboard-only navigation.
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** axe-core reports no violation (WCAG 2.x A and AA, and axe's best practices) on the page as it is now. */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  assert.ok(results.passes.length > 0, `${what}: axe-core ran no check`);
  const violations = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  assert.deepEqual(violations, [], `${what}: accessibility violations`);
}

/** Presses Tab until the focused element matches `selector` (at most `max` presses). */
export async function tabTo(page: Page, selector: string, max = 25): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached ${selector}`);
}

/** The id of the focused element. */
export const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
