// API keys: list, create (the key is shown once), revoke. Served by /trpc/identity/apiKeys.*.
import { identity } from './api.js';
import { $, button, cell, clearErrors, dateFormat, el, showErrors, textCell, timeCell } from './ui.js';

const PAGE_SIZE = 25;
const state = { keys: [], nextCursor: null, loaded: false };

function keyRow(key) {
  const tr = document.createElement('tr');
  if (key.revokedAt) tr.className = 'revoked';
  const badge = el('span', { className: key.revokedAt ? 'badge badge-muted' : 'badge badge-ok', text: key.revokedAt ? 'revoked' : 'active' });
  if (key.revokedAt) badge.title = `Revoked ${dateFormat.format(new Date(key.revokedAt))}`;
  const actions = cell();
  if (!key.revokedAt) {
    const revoke = button('Revoke', { className: 'danger small', label: `Revoke key ${key.name}` });
    revoke.addEventListener('click', () => void revokeKey(key, revoke));
    actions.append(revoke);
  }
  tr.append(
    textCell(key.name),
    cell(el('code', { text: `${key.prefix}…` })),
    textCell(key.scopes.join(', ')),
    textCell(`${key.rateLimitPerMinute.toLocaleString()}/min`, 'num'),
    timeCell(key.createdAt, '—'),
    timeCell(key.lastUsedAt, 'never'),
    cell(badge),
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
  const moreButton = $('load-more');
  moreButton.disabled = true;
  try {
    const input = more && state.nextCursor ? { limit: PAGE_SIZE, cursor: state.nextCursor } : { limit: PAGE_SIZE };
    const page = await identity.query('apiKeys.list', input);
    state.keys = more ? [...state.keys, ...page.items] : page.items;
    state.nextCursor = page.nextCursor;
    state.loaded = true;
    renderKeys();
  } catch (err) {
    $('list-error').textContent = `Could not load the keys: ${err.message}`;
  } finally {
    moreButton.disabled = false;
  }
}

async function revokeKey(key, revoke) {
  const sure = window.confirm(`Revoke the key “${key.name}” (${key.prefix}…)?\n\nIntegrations using it are refused from their next request. This cannot be undone.`);
  if (!sure) return;
  revoke.disabled = true;
  $('list-error').textContent = '';
  try {
    const revoked = await identity.mutate('apiKeys.revoke', { id: key.id });
    state.keys = state.keys.map((k) => (k.id === revoked.id ? revoked : k));
    renderKeys();
    $('list-title').focus();
  } catch (err) {
    revoke.disabled = false;
    $('list-error').textContent = `Could not revoke “${key.name}”: ${err.message}`;
  }
}

// Validation details name the input field ("name", "scopes.0", "rateLimitPerMinute").
const FIELD_ERRORS = { name: 'key-name-error', scopes: 'key-scopes-error', rateLimitPerMinute: 'key-rate-error' };

function locateKeyError(path) {
  const field = path.split('.')[0];
  if (!FIELD_ERRORS[field]) return null;
  const input = field === 'scopes' ? document.querySelector('#create-form fieldset') : document.querySelector(`#create-form [name="${field}"]`);
  return { error: $(FIELD_ERRORS[field]), input };
}

async function createKey(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const submit = form.querySelector('button[type="submit"]');
  clearErrors(form);
  const data = new FormData(form);
  const input = { name: String(data.get('name') ?? ''), scopes: data.getAll('scopes').map(String) };
  const rate = String(data.get('rateLimitPerMinute') ?? '').trim();
  if (rate) input.rateLimitPerMinute = Number(rate);
  submit.disabled = true;
  try {
    const created = await identity.mutate('apiKeys.create', input);
    const { key, ...listed } = created;
    state.keys = [listed, ...state.keys];
    renderKeys();
    showNewKey(created.name, key);
    form.reset();
  } catch (err) {
    const invalid = showErrors(err, $('create-error'), locateKeyError);
    (invalid?.matches('fieldset') ? invalid.querySelector('input') : invalid)?.focus();
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

/** Copies a one-time secret from a readonly input, or selects it when the clipboard is blocked. */
export async function copySecret(input, status) {
  try {
    await navigator.clipboard.writeText(input.value);
    status.textContent = 'Copied to the clipboard.';
  } catch {
    input.select();
    status.textContent = 'Copying was blocked; the value is selected — press Ctrl+C (⌘C).';
  }
}

export const keysSection = {
  init() {
    $('create-form').addEventListener('submit', (e) => void createKey(e));
    $('load-more').addEventListener('click', () => void loadKeys({ more: true }));
    $('copy-key').addEventListener('click', () => void copySecret($('new-key-value'), $('copy-status')));
    $('dismiss-key').addEventListener('click', () => {
      hideNewKey();
      $('key-name').focus();
    });
  },
  async show() {
    if (!state.loaded) await loadKeys();
  },
  reset() {
    state.keys = [];
    state.nextCursor = null;
    state.loaded = false;
    hideNewKey();
    renderKeys();
    clearErrors($('create-form'));
    $('create-form').reset();
  },
};
