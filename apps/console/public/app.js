// The recruiter console: plain DOM, no build step. It talks only to the gateway: /auth/* for the
// cookie session and /trpc/identity/* for API keys. Untrusted text is always set with textContent.

const PAGE_SIZE = 25;
const $ = (id) => document.getElementById(id);

/** An error answer from the gateway (REST shape) or from a service through the tRPC proxy. */
class ApiError extends Error {
  constructor(status, message, code, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

async function request(url, { method = 'GET', body } = {}) {
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return null;
  const payload = await res.json().catch(() => null);
  if (res.ok && payload) return payload;
  const error = payload?.error ?? {};
  if (res.status === 401 && state.user) showLogin('Your session has ended; log in again.');
  throw new ApiError(
    res.status,
    error.message ?? `The request failed (HTTP ${res.status}).`,
    error.data?.appCode ?? error.code,
    error.data?.appDetails ?? error.details ?? [],
  );
}

// tRPC v11 over HTTP without a transformer: queries are GET ?input=<JSON>, mutations POST <JSON>.
const trpc = {
  async query(path, input) {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    return (await request(`/trpc/identity/${path}${query}`)).result.data;
  },
  async mutate(path, input) {
    return (await request(`/trpc/identity/${path}`, { method: 'POST', body: input })).result.data;
  },
};

const state = { user: null, keys: [], nextCursor: null };

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function timeCell(iso, empty) {
  const td = document.createElement('td');
  if (!iso) {
    td.textContent = empty;
    td.className = 'muted';
    return td;
  }
  const time = document.createElement('time');
  time.dateTime = iso;
  time.textContent = dateFormat.format(new Date(iso));
  td.append(time);
  return td;
}

function textCell(text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function keyRow(key) {
  const tr = document.createElement('tr');
  if (key.revokedAt) tr.className = 'revoked';
  const prefix = textCell('', 'mono');
  const code = document.createElement('code');
  code.textContent = `${key.prefix}…`;
  prefix.append(code);
  const status = document.createElement('td');
  const badge = document.createElement('span');
  badge.className = key.revokedAt ? 'badge badge-revoked' : 'badge badge-active';
  badge.textContent = key.revokedAt ? 'revoked' : 'active';
  if (key.revokedAt) badge.title = `Revoked ${dateFormat.format(new Date(key.revokedAt))}`;
  status.append(badge);
  const actions = document.createElement('td');
  if (!key.revokedAt) {
    const revoke = document.createElement('button');
    revoke.type = 'button';
    revoke.className = 'danger small';
    revoke.textContent = 'Revoke';
    revoke.setAttribute('aria-label', `Revoke key ${key.name}`);
    revoke.addEventListener('click', () => void revokeKey(key, revoke));
    actions.append(revoke);
  }
  tr.append(
    textCell(key.name),
    prefix,
    textCell(key.scopes.join(', ')),
    textCell(`${key.rateLimitPerMinute.toLocaleString()}/min`, 'num'),
    timeCell(key.createdAt, '—'),
    timeCell(key.lastUsedAt, 'never'),
    status,
    actions,
  );
  return tr;
}

function renderKeys() {
  $('keys-body').replaceChildren(...state.keys.map(keyRow));
  $('keys-empty').hidden = state.keys.length > 0;
  $('load-more').hidden = !state.nextCursor;
}

async function loadKeys({ more = false } = {}) {
  $('list-error').textContent = '';
  const button = $('load-more');
  button.disabled = true;
  try {
    const input = more && state.nextCursor ? { limit: PAGE_SIZE, cursor: state.nextCursor } : { limit: PAGE_SIZE };
    const page = await trpc.query('apiKeys.list', input);
    state.keys = more ? [...state.keys, ...page.items] : page.items;
    state.nextCursor = page.nextCursor;
    renderKeys();
  } catch (err) {
    $('list-error').textContent = `Could not load the keys: ${err.message}`;
  } finally {
    button.disabled = false;
  }
}

async function revokeKey(key, button) {
  const sure = window.confirm(`Revoke the key “${key.name}” (${key.prefix}…)?\n\nIntegrations using it are refused from their next request. This cannot be undone.`);
  if (!sure) return;
  button.disabled = true;
  $('list-error').textContent = '';
  try {
    const revoked = await trpc.mutate('apiKeys.revoke', { id: key.id });
    state.keys = state.keys.map((k) => (k.id === revoked.id ? revoked : k));
    renderKeys();
    $('list-title').focus();
  } catch (err) {
    button.disabled = false;
    $('list-error').textContent = `Could not revoke “${key.name}”: ${err.message}`;
  }
}

// Validation details name the input field ("name", "scopes.0", "rateLimitPerMinute").
const FIELD_ERRORS = { name: 'key-name-error', scopes: 'key-scopes-error', rateLimitPerMinute: 'key-rate-error' };

function clearCreateErrors() {
  for (const id of [...Object.values(FIELD_ERRORS), 'create-error']) $(id).textContent = '';
  for (const el of document.querySelectorAll('#create-form [aria-invalid]')) el.removeAttribute('aria-invalid');
}

function showCreateErrors(err) {
  const unplaced = [];
  for (const detail of err.details ?? []) {
    const field = String(detail.path ?? '').split('.')[0];
    const target = FIELD_ERRORS[field];
    if (!target) {
      unplaced.push(detail.path ? `${detail.path}: ${detail.message}` : detail.message);
      continue;
    }
    $(target).textContent = $(target).textContent ? `${$(target).textContent} ${detail.message}` : detail.message;
    const input = field === 'scopes' ? document.querySelector('#create-form fieldset') : document.querySelector(`#create-form [name="${field}"]`);
    input?.setAttribute('aria-invalid', 'true');
  }
  $('create-error').textContent = [err.message, ...unplaced].join(' ');
}

async function createKey(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const submit = form.querySelector('button[type="submit"]');
  clearCreateErrors();
  const data = new FormData(form);
  const input = { name: String(data.get('name') ?? ''), scopes: data.getAll('scopes').map(String) };
  const rate = String(data.get('rateLimitPerMinute') ?? '').trim();
  if (rate) input.rateLimitPerMinute = Number(rate);
  submit.disabled = true;
  try {
    const created = await trpc.mutate('apiKeys.create', input);
    const { key, ...listed } = created;
    state.keys = [listed, ...state.keys];
    renderKeys();
    showNewKey(created.name, key);
    form.reset();
  } catch (err) {
    showCreateErrors(err);
  } finally {
    submit.disabled = false;
  }
}

function showNewKey(name, key) {
  $('new-key-name').textContent = name;
  $('new-key-value').value = key;
  $('copy-status').textContent = '';
  $('new-key').hidden = false;
  $('new-key').focus();
}

// The secret lives only in this input until the user dismisses it or leaves the page.
function hideNewKey() {
  $('new-key-value').value = '';
  $('new-key').hidden = true;
}

async function copyNewKey() {
  const input = $('new-key-value');
  try {
    await navigator.clipboard.writeText(input.value);
    $('copy-status').textContent = 'Copied to the clipboard.';
  } catch {
    input.select();
    $('copy-status').textContent = 'Copying was blocked; the key is selected — press Ctrl+C (⌘C).';
  }
}

function showLogin(message = '') {
  state.user = null;
  state.keys = [];
  state.nextCursor = null;
  hideNewKey();
  $('booting').hidden = true;
  $('account').hidden = true;
  $('keys-view').hidden = true;
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
  $('keys-view').hidden = false;
  $('keys-title').focus();
  const [organization] = await Promise.all([trpc.query('organizations.current').catch(() => null), loadKeys()]);
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
  $('login-form').addEventListener('submit', (e) => void login(e));
  $('create-form').addEventListener('submit', (e) => void createKey(e));
  $('logout').addEventListener('click', () => void logout().catch(() => {}));
  $('load-more').addEventListener('click', () => void loadKeys({ more: true }));
  $('copy-key').addEventListener('click', () => void copyNewKey());
  $('dismiss-key').addEventListener('click', hideNewKey);
  try {
    const { data } = await request('/auth/session');
    await showConsole(data.user);
  } catch {
    showLogin();
  }
}

void start();
