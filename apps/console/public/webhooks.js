// Webhooks: list, register (the signing secret is shown once), delete, and each webhook's delivery
// log (/trpc/integrations/webhooks.*).
import { integrations } from './api.js';
import { copySecret } from './keys.js';
import { $, button, cell, clearErrors, el, showErrors, textCell, timeCell } from './ui.js';

const PAGE_SIZE = 25;
const LOG_SIZE = 25;

/**
 * Subscribable event types, read from the API's own OpenAPI document (the contracts own the list;
 * the console does not keep a copy): the enum of POST /webhooks' `events` items.
 */
async function subscribableEventTypes() {
  const res = await fetch('/api/v1/openapi.json');
  const doc = await res.json();
  const items = doc.paths['/webhooks'].post.requestBody.content['application/json'].schema.properties.events.items;
  return (items.anyOf ?? [items]).flatMap((option) => option.enum ?? []);
}

/** open: ids of webhooks whose delivery log is shown; logs: webhookId → { items, nextCursor, error }. */
const state = { webhooks: [], nextCursor: null, loaded: false, open: new Set(), logs: new Map() };

// ---- delivery log ----

function statusCodeCell(code) {
  if (code === null || code === undefined) return textCell('—', 'muted');
  return cell(el('span', { className: code >= 200 && code < 300 ? 'badge badge-ok' : 'badge badge-danger', text: code }));
}

function attemptRow(a) {
  return el(
    'tr',
    {},
    textCell(a.attempt, 'num'),
    cell(el('code', { text: a.eventType })),
    statusCodeCell(a.statusCode),
    textCell(a.latencyMs.toLocaleString(), 'num'),
    a.error ? textCell(a.error, 'wrap error-text') : textCell('—', 'muted'),
    timeCell(a.createdAt, '—', { precise: true }),
  );
}

function renderLog(webhook) {
  const box = document.getElementById(`log-${webhook.id}`);
  if (!box) return;
  const log = state.logs.get(webhook.id);
  const title = el('h3', { text: `Delivery log of ${webhook.url}`, attrs: { tabindex: '-1' } });
  const refresh = button('Refresh', { label: `Refresh the delivery log of ${webhook.url}`, onClick: () => void loadLog(webhook, { focus: 'refresh' }) });
  refresh.dataset.role = 'refresh';
  const parts = [el('div', { className: 'log-head' }, title, refresh)];
  if (!log) {
    parts.push(el('p', { className: 'muted', text: 'Loading…' }));
  } else {
    if (log.error) parts.push(el('p', { className: 'error', text: log.error, attrs: { role: 'alert' } }));
    if (log.items.length === 0 && !log.error) {
      parts.push(el('p', { className: 'empty', text: 'No delivery attempts yet. The ping is sent right after registration; refresh in a moment.' }));
    } else if (log.items.length) {
      const columns = [['Attempt', 'num'], ['Event'], ['Status code'], ['Latency (ms)', 'num'], ['Error'], ['Time']];
      const head = el('tr', {}, ...columns.map(([t, className]) => el('th', { className, text: t, attrs: { scope: 'col' } })));
      parts.push(el('div', { className: 'table-wrap' }, el('table', { className: 'log-table' }, el('thead', {}, head), el('tbody', {}, ...log.items.map(attemptRow)))));
    }
    if (log.nextCursor) parts.push(button('Older attempts', { onClick: () => void loadLog(webhook, { more: true }) }));
  }
  box.replaceChildren(...parts);
}

async function loadLog(webhook, { more = false, focus } = {}) {
  const current = state.logs.get(webhook.id);
  const input = { webhookId: webhook.id, limit: LOG_SIZE };
  if (more && current?.nextCursor) input.cursor = current.nextCursor;
  let log;
  try {
    const page = await integrations.query('webhooks.attempts', input);
    log = { items: more && current ? [...current.items, ...page.items] : page.items, nextCursor: page.nextCursor, error: null };
  } catch (err) {
    log = { items: current?.items ?? [], nextCursor: current?.nextCursor ?? null, error: `Could not load the delivery log: ${err.message}` };
  }
  if (!state.open.has(webhook.id)) return; // closed (or deleted) while loading
  state.logs.set(webhook.id, log);
  renderLog(webhook);
  const box = document.getElementById(`log-${webhook.id}`);
  if (focus === 'refresh') box.querySelector('[data-role="refresh"]')?.focus();
  else if (focus === 'title') box.querySelector('h3')?.focus();
}

function toggleLog(webhook, toggle) {
  const row = document.getElementById(`log-row-${webhook.id}`);
  const open = toggle.getAttribute('aria-expanded') !== 'true';
  toggle.setAttribute('aria-expanded', String(open));
  row.hidden = !open;
  state.logs.delete(webhook.id);
  if (open) {
    state.open.add(webhook.id);
    renderLog(webhook);
    void loadLog(webhook, { focus: 'title' });
  } else {
    state.open.delete(webhook.id);
  }
}

// ---- list ----

function webhookRows(webhook) {
  const status = cell(el('span', { className: webhook.status === 'enabled' ? 'badge badge-ok' : 'badge badge-danger', text: webhook.status }));
  if (webhook.disabledReason) status.append(el('span', { className: 'sub', text: webhook.disabledReason }));
  const url = cell(el('code', { className: 'wrap', text: webhook.url }));
  if (webhook.description) url.append(el('span', { className: 'sub', text: webhook.description }));
  const events = cell(el('ul', { className: 'chips' }, ...webhook.events.map((e) => el('li', { className: 'chip', text: e === '*' ? 'all events (*)' : e }))));
  const logOpen = state.open.has(webhook.id);
  const toggle = button('Delivery log', { label: `Delivery log of ${webhook.url}` });
  toggle.setAttribute('aria-expanded', String(logOpen));
  toggle.setAttribute('aria-controls', `log-row-${webhook.id}`);
  toggle.addEventListener('click', () => toggleLog(webhook, toggle));
  const remove = button('Delete', { className: 'danger small', label: `Delete webhook ${webhook.url}` });
  remove.addEventListener('click', () => void deleteWebhook(webhook, remove));
  const main = el('tr', { attrs: { 'data-webhook-id': webhook.id } }, url, events, status, timeCell(webhook.createdAt, '—'), cell(el('div', { className: 'row-actions' }, toggle, remove)));
  const logRow = el('tr', { className: 'log-row', attrs: { id: `log-row-${webhook.id}` } }, el('td', { attrs: { colspan: 5 } }, el('div', { className: 'log', attrs: { id: `log-${webhook.id}` } })));
  logRow.hidden = !logOpen;
  return [main, logRow];
}

function renderWebhooks() {
  $('webhooks-body').replaceChildren(...state.webhooks.flatMap(webhookRows));
  for (const w of state.webhooks) if (state.open.has(w.id)) renderLog(w);
  $('webhooks-empty').hidden = state.webhooks.length > 0;
  $('webhooks-more').hidden = !state.nextCursor;
}

async function loadWebhooks({ more = false } = {}) {
  $('webhooks-list-error').textContent = '';
  const moreButton = $('webhooks-more');
  moreButton.disabled = true;
  try {
    const input = more && state.nextCursor ? { limit: PAGE_SIZE, cursor: state.nextCursor } : { limit: PAGE_SIZE };
    const page = await integrations.query('webhooks.list', input);
    state.webhooks = more ? [...state.webhooks, ...page.items] : page.items;
    state.nextCursor = page.nextCursor;
    state.loaded = true;
    renderWebhooks();
  } catch (err) {
    $('webhooks-list-error').textContent = `Could not load the webhooks: ${err.message}`;
  } finally {
    moreButton.disabled = false;
  }
}

async function deleteWebhook(webhook, remove) {
  if (!window.confirm(`Delete the webhook to ${webhook.url}?\n\nNo more events are sent to it. This cannot be undone.`)) return;
  remove.disabled = true;
  $('webhooks-list-error').textContent = '';
  try {
    await integrations.mutate('webhooks.delete', { id: webhook.id });
    state.webhooks = state.webhooks.filter((w) => w.id !== webhook.id);
    state.open.delete(webhook.id);
    state.logs.delete(webhook.id);
    renderWebhooks();
    $('webhooks-status').textContent = `Deleted the webhook to ${webhook.url}.`;
    $('webhooks-list-title').focus();
  } catch (err) {
    remove.disabled = false;
    $('webhooks-list-error').textContent = `Could not delete the webhook to ${webhook.url}: ${err.message}`;
  }
}

// ---- register ----

function syncAllEvents() {
  const all = $('webhook-all-events').checked;
  for (const box of $('webhook-event-list').querySelectorAll('input')) box.disabled = all;
}

function locateWebhookError(path) {
  const field = path.split('.')[0];
  if (field === 'url') return { error: $('webhook-url-error'), input: $('webhook-url') };
  if (field === 'description') return { error: $('webhook-description-error'), input: $('webhook-description') };
  if (field === 'events') return { error: $('webhook-events-error'), input: $('webhook-events') };
  return null;
}

async function registerWebhook(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const submit = form.querySelector('button[type="submit"]');
  clearErrors(form);
  $('webhooks-status').textContent = '';
  const data = new FormData(form);
  const input = {
    url: String(data.get('url') ?? '').trim(),
    events: $('webhook-all-events').checked ? ['*'] : data.getAll('events').map(String),
  };
  const description = String(data.get('description') ?? '').trim();
  if (description) input.description = description;
  submit.disabled = true;
  try {
    const created = await integrations.mutate('webhooks.create', input);
    const { secret, ...listed } = created;
    state.webhooks = [listed, ...state.webhooks];
    renderWebhooks();
    form.reset();
    syncAllEvents();
    showSecret(listed.url, secret);
  } catch (err) {
    const invalid = showErrors(err, $('webhook-form-error'), locateWebhookError);
    (invalid?.matches('fieldset') ? $('webhook-all-events') : invalid)?.focus();
  } finally {
    submit.disabled = false;
  }
}

function showSecret(url, secret) {
  $('webhook-secret-url').textContent = url;
  $('webhook-secret-value').value = secret;
  $('webhook-copy-status').textContent = '';
  $('webhook-secret').hidden = false;
  $('webhook-secret').focus();
}

// The secret lives only in this input until the user dismisses it or leaves the page.
function hideSecret() {
  $('webhook-secret-value').value = '';
  $('webhook-secret').hidden = true;
}

export const webhooksSection = {
  init() {
    void subscribableEventTypes().then((types) =>
      $('webhook-event-list').replaceChildren(
        ...types.map((type) => el('label', { className: 'check' }, el('input', { attrs: { type: 'checkbox', name: 'events', value: type } }), el('code', { text: type }))),
      ),
    );
    $('webhook-all-events').addEventListener('change', syncAllEvents);
    $('webhook-form').addEventListener('submit', (e) => void registerWebhook(e));
    $('webhooks-more').addEventListener('click', () => void loadWebhooks({ more: true }));
    $('webhook-copy').addEventListener('click', () => void copySecret($('webhook-secret-value'), $('webhook-copy-status')));
    $('webhook-dismiss').addEventListener('click', () => {
      hideSecret();
      $('webhooks-list-title').focus();
    });
    syncAllEvents();
  },
  async show() {
    if (!state.loaded) await loadWebhooks();
  },
  reset() {
    state.webhooks = [];
    state.nextCursor = null;
    state.loaded = false;
    state.open.clear();
    state.logs.clear();
    hideSecret();
    renderWebhooks();
    const form = $('webhook-form');
    form.reset();
    clearErrors(form);
    syncAllEvents();
    $('webhooks-status').textContent = '';
  },
};
