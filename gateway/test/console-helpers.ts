// Shared helpers of the console's browser tests (gateway/test/console-*.browser.test.ts):
// Debian's Chromium through playwright-core (never a downloaded browser), a fresh organization and
// console user per test file, log in, open a view at a width, and the checks every view must pass.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { newKey, testIdentity } from '@hireloop/devstack/testing';
import type { Scope } from '@hireloop/contracts';
import { CHROMIUM, hasChromium, launchChromium } from '@hireloop/devstack/chromium';

/** CI installs Chromium; on a machine without it the browser tests are skipped, never passed. */
export const skipWithoutChromium: string | false = !hasChromium() && !process.env['CI'] ? `no Chromium at ${CHROMIUM} (apt-get install chromium)` : false;

/** The two widths every view is checked at: a laptop and a phone. */
export const WIDTHS = { desktop: 1280, phone: 390 } as const;
export type Width = (typeof WIDTHS)[keyof typeof WIDTHS];

/** The browser opens pages at the public origin, as a user would (the same-origin check compares with it). */
export const publicBaseUrl = (): string => process.env['PUBLIC_BASE_URL']!;
export const consoleUrl = (path = ''): string => `${publicBaseUrl()}/console/${path.replace(/^\//, '')}`;

export const launchBrowser = launchChromium;

export interface ConsoleUser {
  organizationId: string;
  organizationName: string;
  email: string;
  password: string;
}

/** A fresh organization with one console user, so tests never see each other's data. */
export async function newConsoleUser(): Promise<ConsoleUser> {
  const identity = testIdentity();
  const tag = Math.random().toString(36).slice(2, 10);
  const organization = await identity.system.organizations.create.mutate({ name: `Console test ${tag}` });
  const email = `console-${tag}@example.test`;
  const password = `pw-${tag}-${Math.random().toString(36).slice(2)}`;
  await identity.system.users.create.mutate({ organizationId: organization.id, email, name: `Recruiter ${tag}`, password });
  return { organizationId: organization.id, organizationName: organization.name, email, password };
}

export interface ConsolePage {
  page: Page;
  context: BrowserContext;
  /** Uncaught page errors and Content-Security-Policy refusals seen so far. */
  errors: string[];
  /** The page's `console.warn` messages seen so far (a library's complaint about how it is used). */
  warnings: string[];
  close: () => Promise<void>;
}

/** A fresh browser context (own cookies) with a page of the given width that records page errors. */
export async function openPage(browser: Browser, width: Width = WIDTHS.desktop): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport: { width, height: width === WIDTHS.phone ? 844 : 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  const warnings: string[] = [];
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) errors.push(msg.text());
    else if (msg.type() === 'warning') warnings.push(msg.text());
  });
  return { page, context, errors, warnings, close: () => context.close() };
}

/** Logs in through the login page and waits for the signed-in header. */
export async function logIn(page: Page, user: Pick<ConsoleUser, 'email' | 'password'>, path = ''): Promise<void> {
  await page.goto(consoleUrl(path ? `login?next=${encodeURIComponent(`/${path.replace(/^\//, '')}`)}` : 'login'));
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

/** Opens a console path (`keys`, `webhooks/wh_…`) and waits for its page heading. */
export async function openView(page: Page, path: string, heading?: string | RegExp): Promise<void> {
  await page.goto(consoleUrl(path));
  await page.getByRole('heading', { level: 1, ...(heading ? { name: heading } : {}) }).first().waitFor();
}

/**
 * A well-formed id of nothing in the organization: a not-found page (`heading`) without Retry (a
 * 404 does not get better by asking again) whose link `back` leads to the list (`list` heading).
 */
export async function assertNoSuchResource(view: ConsolePage, path: string, heading: string, back: string, list: string): Promise<void> {
  await openView(view.page, path, heading);
  assert.equal(await view.page.getByRole('button', { name: 'Retry' }).count(), 0, `/console/${path}: no Retry on a 404`);
  await view.page.getByRole('main').getByRole('link', { name: back }).click();
  await view.page.getByRole('heading', { level: 1, name: list }).waitFor();
}

/** No horizontal page overflow: tables scroll inside their own box or become lists. */
export async function assertNoOverflow(page: Page, what: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  assert.ok(scrollWidth <= innerWidth, `${what}: the page is ${scrollWidth} px wide in a ${innerWidth} px window`);
}

/**
 * Waits until keyboard focus is on `target` (after an action, focus must not fall back to
 * <body>); fails naming what has focus instead.
 */
export async function waitForFocus(page: Page, target: Locator, what: string): Promise<void> {
  const element = await target.elementHandle({ timeout: 5000 });
  try {
    await page.waitForFunction((el) => document.activeElement === el, element, { timeout: 5000 });
  } catch {
    const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120) ?? 'nothing');
    assert.fail(`${what}: focus is on ${focused}`);
  }
}

/** Like waitForFocus, for an action whose control may go away: focus stays inside `region`. */
export async function waitForFocusWithin(page: Page, region: Locator, what: string): Promise<void> {
  const element = await region.elementHandle({ timeout: 5000 });
  try {
    await page.waitForFunction((el) => document.activeElement !== document.body && el?.contains(document.activeElement), element, { timeout: 5000 });
  } catch {
    const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120) ?? 'nothing');
    assert.fail(`${what}: focus is on ${focused}`);
  }
}

export function assertNoPageErrors(errors: string[], what: string): void {
  assert.deepEqual(errors, [], `${what}: page errors or refused loads`);
}

/** The checks every view passes at a width: it renders, no overflow, no page error, no console warning. */
export async function checkView(page: ConsolePage, path: string, heading?: string | RegExp): Promise<void> {
  await openView(page.page, path, heading);
  const width = page.page.viewportSize()?.width ?? 0;
  await assertNoOverflow(page.page, `/console/${path} at ${width} px`);
  assertNoPageErrors(page.errors, `/console/${path} at ${width} px`);
  assert.deepEqual(page.warnings, [], `/console/${path} at ${width} px: console warnings`);
}

/** A describe block's browser: launched in its `before`, closed in its `after`. */
export function suiteBrowser(): { browser: Browser } {
  const suite = {} as { browser: Browser };
  before(async () => {
    suite.browser = await launchBrowser();
  });
  after(() => suite.browser?.close());
  return suite;
}

/** A describe block's browser, console user and API key: made in its `before`, closed in its `after`. */
export interface ConsoleSession {
  browser: Browser;
  user: ConsoleUser;
  key: string;
}

export function consoleSession(scopes: Scope[], rateLimitPerMinute?: number): ConsoleSession {
  const session = suiteBrowser() as ConsoleSession;
  before(async () => {
    session.user = await newConsoleUser();
    session.key = (await newKey(session.user.organizationId, scopes, rateLimitPerMinute)).key;
  });
  return session;
}
