// Small DOM helpers shared by the console's sections. Server text only ever goes in via textContent.

export const $ = (id) => document.getElementById(id);

export const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });

/** createElement with a class name, text and children; attributes go through setAttribute. */
export function el(tag, { className, text, attrs } = {}, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [name, value] of Object.entries(attrs ?? {})) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

export function button(text, { className = 'secondary small', label, onClick } = {}) {
  const b = el('button', { className, text, attrs: { type: 'button', ...(label ? { 'aria-label': label } : {}) } });
  if (onClick) b.addEventListener('click', onClick);
  return b;
}

/** A <time> element; `precise` shows seconds (delivery logs). */
export function timeEl(iso, { precise = false } = {}) {
  const time = document.createElement('time');
  time.dateTime = iso;
  time.textContent = (precise ? timeFormat : dateFormat).format(new Date(iso));
  return time;
}

export function timeCell(iso, empty, options) {
  const td = document.createElement('td');
  if (!iso) {
    td.textContent = empty;
    td.className = 'muted';
    return td;
  }
  td.append(timeEl(iso, options));
  return td;
}

export function textCell(text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

export function cell(...children) {
  const td = document.createElement('td');
  td.append(...children);
  return td;
}

/** Splits "a, b ,, c" into ["a", "b", "c"]. */
export function splitList(text) {
  return String(text ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

/** Empties every .error of a form and drops its aria-invalid marks. */
export function clearErrors(form) {
  for (const p of form.querySelectorAll('.error')) p.textContent = '';
  for (const node of form.querySelectorAll('[aria-invalid]')) node.removeAttribute('aria-invalid');
}

function appendText(node, text) {
  node.textContent = node.textContent ? `${node.textContent} ${text}` : text;
}

/**
 * Puts each validation detail of an ApiError next to its field. `locate(path)` maps a detail's
 * path ("name", "stages.0.kind") to { error, input } elements or null; the rest goes, with the
 * message, into `general`. Returns the first invalid input, for focus.
 */
export function showErrors(err, general, locate) {
  const unplaced = [];
  let first = null;
  for (const detail of err.details ?? []) {
    const path = String(detail.path ?? '');
    const spot = path ? locate(path) : null;
    if (!spot) {
      unplaced.push(path && path !== '(root)' ? `${path}: ${detail.message}` : detail.message);
      continue;
    }
    appendText(spot.error, detail.message);
    if (spot.input) {
      spot.input.setAttribute('aria-invalid', 'true');
      first ??= spot.input;
    }
  }
  general.textContent = [err.message, ...unplaced].join(' ');
  return first;
}

/** Fills a <select> with an optional empty first option and {value, label} options. */
export function fillSelect(select, options, { empty } = {}) {
  const keep = select.value;
  const nodes = options.map(({ value, label }) => {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label;
    return option;
  });
  if (empty !== undefined) {
    const option = document.createElement('option');
    option.value = '';
    option.textContent = empty;
    nodes.unshift(option);
  }
  select.replaceChildren(...nodes);
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
}
