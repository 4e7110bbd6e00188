// The recruiter console: plain DOM and ES modules, no build step. It talks only to the gateway:
// /auth/* for the cookie session and /trpc/<service>/* for data. Untrusted text is always set
// with textContent. Each section module has init() (once), show() (when its tab opens; loads its
// data the first time) and reset() (on logout).
import { identity, request, setUnauthorizedHandler } from './api.js';
import { atsSection } from './ats.js';
import { flowsSection } from './flows.js';
import { jobsSection } from './jobs.js';
import { keysSection } from './keys.js';
import { resetPositions } from './positions.js';
import { $ } from './ui.js';
import { webhooksSection } from './webhooks.js';

/** Tab order = order in the tab list; the first is the default. */
const TABS = [
  { name: 'keys', section: keysSection },
  { name: 'flows', section: flowsSection },
  { name: 'webhooks', section: webhooksSection },
  { name: 'ats', section: atsSection },
  { name: 'jobs', section: jobsSection },
];

const state = { user: null, tab: null };

const tabButton = (name) => $(`tab-${name}`);
const tabPanel = (name) => $(`${name}-view`);

/** Shows one tab (ARIA tabs: one tab in the Tab sequence, arrows move between them). */
function selectTab(name, { focus = 'none' } = {}) {
  const tab = TABS.find((t) => t.name === name) ?? TABS[0];
  state.tab = tab.name;
  for (const t of TABS) {
    const selected = t === tab;
    tabButton(t.name).setAttribute('aria-selected', String(selected));
    tabButton(t.name).tabIndex = selected ? 0 : -1;
    tabPanel(t.name).hidden = !selected;
  }
  if (location.hash !== `#${tab.name}`) history.replaceState(null, '', `#${tab.name}`);
  if (focus === 'tab') tabButton(tab.name).focus();
  if (focus === 'title') tabPanel(tab.name).querySelector('h1').focus();
  void tab.section.show().catch(() => {});
}

function onTabKey(event) {
  const index = TABS.findIndex((t) => t.name === state.tab);
  const moves = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 };
  if (!(event.key in moves)) return;
  event.preventDefault();
  selectTab(TABS[(moves[event.key] + TABS.length) % TABS.length].name, { focus: 'tab' });
}

function showLogin(message = '') {
  state.user = null;
  for (const t of TABS) t.section.reset();
  resetPositions();
  $('booting').hidden = true;
  $('account').hidden = true;
  $('console-view').hidden = true;
  $('login-view').hidden = false;
  $('login-error').textContent = message;
  $('login-email').focus();
}

async function showConsole(user) {
  state.user = user;
  $('booting').hidden = true;
  $('login-view').hidden = true;
  $('org-name').textContent = user.organization.name;
  $('user-email').textContent = user.email;
  $('account').hidden = false;
  $('console-view').hidden = false;
  selectTab(location.hash.slice(1), { focus: 'title' });
  const organization = await identity.query('organizations.current').catch(() => null);
  if (organization) $('org-name').textContent = organization.name;
}

async function login(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const submit = form.querySelector('button[type="submit"]');
  const data = new FormData(form);
  $('login-error').textContent = '';
  submit.disabled = true;
  try {
    const { data: session } = await request('/auth/login', {
      method: 'POST',
      body: { email: String(data.get('email') ?? ''), password: String(data.get('password') ?? '') },
    });
    form.reset();
    await showConsole(session.user);
  } catch (err) {
    $('login-error').textContent = err.message;
    $('login-password').select();
  } finally {
    submit.disabled = false;
  }
}

async function logout() {
  try {
    await request('/auth/logout', { method: 'POST' });
  } finally {
    showLogin();
  }
}

async function start() {
  const apiBase = `${location.origin}/api/v1`;
  $('api-base').textContent = apiBase;
  $('api-base-lead').textContent = apiBase;
  setUnauthorizedHandler(() => {
    if (state.user) showLogin('Your session has ended; log in again.');
  });
  $('login-form').addEventListener('submit', (e) => void login(e));
  $('logout').addEventListener('click', () => void logout().catch(() => {}));
  for (const t of TABS) {
    tabButton(t.name).addEventListener('click', () => selectTab(t.name));
    tabButton(t.name).addEventListener('keydown', onTabKey);
    t.section.init();
  }
  try {
    const { data } = await request('/auth/session');
    await showConsole(data.user);
  } catch {
    showLogin();
  }
}

void start();
