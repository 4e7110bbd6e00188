// Hiring flows: list, create and edit (/trpc/recruiting/flows.*). A flow is a name, an optional
// position and 1–20 ordered stages; the server checks that an ai_interview stage has a position.
import { recruiting } from './api.js';
import { fillPositionSelect, loadPositions, positionTitle } from './positions.js';
import { $, button, cell, clearErrors, el, showErrors, textCell, timeCell } from './ui.js';

const PAGE_SIZE = 25;
const MAX_STAGES = 20;
export const STAGE_KINDS = [
  { value: 'screen', label: 'Screen' },
  { value: 'ai_interview', label: 'AI interview' },
  { value: 'review', label: 'Review' },
  { value: 'offer', label: 'Offer' },
];
const kindLabel = (kind) => STAGE_KINDS.find((k) => k.value === kind)?.label ?? kind;

const state = { flows: [], nextCursor: null, loaded: false, editing: null };
let rowSeq = 0;

// ---- list ----

function stageChips(stages) {
  const list = el('ol', { className: 'chips', attrs: { 'aria-label': `${stages.length} stages` } });
  for (const stage of [...stages].sort((a, b) => a.position - b.position)) {
    list.append(el('li', { className: `chip chip-${stage.kind}` }, el('span', { text: stage.name }), el('span', { className: 'chip-kind', text: kindLabel(stage.kind) })));
  }
  return list;
}

function positionCell(positionId) {
  if (!positionId) return textCell('—', 'muted');
  const title = positionTitle(positionId);
  return title ? textCell(title) : cell(el('code', { text: positionId }));
}

function flowRow(flow) {
  const name = cell(el('span', { className: 'strong', text: flow.name }));
  if (flow.description) name.append(el('span', { className: 'sub', text: flow.description }));
  const edit = button('Edit', { label: `Edit flow ${flow.name}` });
  edit.addEventListener('click', () => void startEdit(flow.id, edit));
  const tr = el('tr', { attrs: { 'data-flow-id': flow.id } }, name, positionCell(flow.positionId), cell(stageChips(flow.stages)), timeCell(flow.createdAt, '—'), cell(edit));
  if (state.editing === flow.id) tr.className = 'editing';
  return tr;
}

function renderFlows() {
  $('flows-body').replaceChildren(...state.flows.map(flowRow));
  $('flows-empty').hidden = state.flows.length > 0;
  $('flows-more').hidden = !state.nextCursor;
}

async function loadFlows({ more = false } = {}) {
  $('flows-list-error').textContent = '';
  const moreButton = $('flows-more');
  moreButton.disabled = true;
  try {
    const input = more && state.nextCursor ? { limit: PAGE_SIZE, cursor: state.nextCursor } : { limit: PAGE_SIZE };
    // Titles come from the positions; a failure there only leaves ids in the table.
    const [page] = await Promise.all([recruiting.query('flows.list', input), loadPositions().catch(() => null)]);
    state.flows = more ? [...state.flows, ...page.items] : page.items;
    state.nextCursor = page.nextCursor;
    state.loaded = true;
    renderFlows();
  } catch (err) {
    $('flows-list-error').textContent = `Could not load the flows: ${err.message}`;
  } finally {
    moreButton.disabled = false;
  }
}

// ---- stages editor ----

function stageRows() {
  return [...$('flow-stages').children];
}

/** Numbers the rows' labels and enables only the moves and removals that make sense. */
function renumberStages() {
  const rows = stageRows();
  rows.forEach((row, i) => {
    const n = i + 1;
    row.querySelector('.stage-num').textContent = `${n}.`;
    row.querySelector('.stage-name-label').textContent = `Stage ${n} name`;
    row.querySelector('.stage-kind-label').textContent = `Stage ${n} kind`;
    const [up, down, remove] = row.querySelectorAll('.stage-actions button');
    up.setAttribute('aria-label', `Move stage ${n} up`);
    down.setAttribute('aria-label', `Move stage ${n} down`);
    remove.setAttribute('aria-label', `Remove stage ${n}`);
    up.disabled = i === 0;
    down.disabled = i === rows.length - 1;
    remove.disabled = rows.length === 1;
  });
  $('flow-add-stage').disabled = rows.length >= MAX_STAGES;
}

function moveStage(row, direction, pressed) {
  const sibling = direction < 0 ? row.previousElementSibling : row.nextElementSibling;
  if (!sibling) return;
  if (direction < 0) sibling.before(row);
  else sibling.after(row);
  renumberStages();
  // Keep focus on the button just pressed; at the end of the list it is disabled, so use its twin.
  const [up, down] = row.querySelectorAll('.stage-actions button');
  (pressed.disabled ? (pressed === up ? down : up) : pressed).focus();
  const n = stageRows().indexOf(row) + 1;
  $('flow-stages-status').textContent = `Stage “${row.querySelector('input').value || 'unnamed'}” is now stage ${n}.`;
}

function removeStage(row) {
  const next = row.nextElementSibling ?? row.previousElementSibling;
  row.remove();
  renumberStages();
  (next?.querySelector('input') ?? $('flow-add-stage')).focus();
  $('flow-stages-status').textContent = 'Stage removed.';
}

function addStage({ name = '', kind = 'screen' } = {}, { focus = false } = {}) {
  const id = `stage-${++rowSeq}`;
  const nameInput = el('input', { attrs: { id: `${id}-name`, type: 'text', required: '', maxlength: 200, 'aria-describedby': `${id}-error`, autocomplete: 'off' } });
  nameInput.value = name;
  const kindSelect = el('select', { attrs: { id: `${id}-kind`, 'aria-describedby': `${id}-error` } });
  for (const k of STAGE_KINDS) kindSelect.append(el('option', { text: k.label, attrs: { value: k.value } }));
  kindSelect.value = kind;
  const row = el('li', { className: 'stage-row' });
  const up = button('↑', { onClick: (e) => moveStage(row, -1, e.currentTarget) });
  const down = button('↓', { onClick: (e) => moveStage(row, 1, e.currentTarget) });
  const remove = button('Remove', { className: 'danger small', onClick: () => removeStage(row) });
  row.append(
    el('span', { className: 'stage-num', attrs: { 'aria-hidden': 'true' } }),
    el('div', { className: 'stage-field' }, el('label', { className: 'stage-name-label visually-hidden', attrs: { for: nameInput.id } }), nameInput),
    el('div', { className: 'stage-field' }, el('label', { className: 'stage-kind-label visually-hidden', attrs: { for: kindSelect.id } }), kindSelect),
    el('div', { className: 'stage-actions' }, up, down, remove),
    el('p', { className: 'error', attrs: { id: `${id}-error` } }),
  );
  $('flow-stages').append(row);
  renumberStages();
  if (focus) nameInput.focus();
}

function setStages(stages) {
  $('flow-stages').replaceChildren();
  for (const s of stages) addStage(s);
  if (stages.length === 0) addStage();
}

// ---- form ----

function formInput() {
  const form = $('flow-form');
  const data = new FormData(form);
  const input = {
    name: String(data.get('name') ?? ''),
    stages: stageRows().map((row) => ({ name: row.querySelector('input').value, kind: row.querySelector('select').value })),
  };
  const description = String(data.get('description') ?? '');
  if (description.trim()) input.description = description;
  const positionId = String(data.get('positionId') ?? '');
  if (positionId) input.positionId = positionId;
  return input;
}

function locateFlowError(path) {
  const parts = path.replace(/^flow\./, '').split('.');
  const simple = { name: 'flow-name', description: 'flow-description', positionId: 'flow-position' };
  if (simple[parts[0]]) return { error: $(`${simple[parts[0]]}-error`), input: $(simple[parts[0]]) };
  if (parts[0] !== 'stages') return null;
  const row = parts[1] === undefined ? null : stageRows()[Number(parts[1])];
  if (!row) return { error: $('flow-stages-error'), input: $('flow-stages-fieldset') };
  const input = parts[2] === 'kind' ? row.querySelector('select') : row.querySelector('input');
  return { error: row.querySelector('.error'), input };
}

function resetForm() {
  state.editing = null;
  const form = $('flow-form');
  form.reset();
  clearErrors(form);
  setStages([{ name: 'Screening', kind: 'screen' }]);
  $('flow-form-title').textContent = 'Create a flow';
  $('flow-submit').textContent = 'Create flow';
  $('flow-cancel').hidden = true;
  $('flow-stages-status').textContent = '';
}

async function startEdit(id, trigger) {
  $('flows-list-error').textContent = '';
  trigger.disabled = true;
  try {
    const flow = await recruiting.query('flows.get', { id });
    resetForm();
    state.editing = flow.id;
    const form = $('flow-form');
    form.elements.name.value = flow.name;
    form.elements.description.value = flow.description ?? '';
    const select = $('flow-position');
    if (flow.positionId && ![...select.options].some((o) => o.value === flow.positionId)) {
      select.append(el('option', { text: flow.positionId, attrs: { value: flow.positionId } }));
    }
    select.value = flow.positionId ?? '';
    setStages([...flow.stages].sort((a, b) => a.position - b.position).map(({ name, kind }) => ({ name, kind })));
    $('flow-form-title').textContent = `Edit “${flow.name}”`;
    $('flow-submit').textContent = 'Save changes';
    $('flow-cancel').hidden = false;
    renderFlows();
    $('flow-form-title').focus();
  } catch (err) {
    $('flows-list-error').textContent = `Could not open the flow: ${err.message}`;
  } finally {
    trigger.disabled = false;
  }
}

async function submitFlow(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const submit = $('flow-submit');
  clearErrors(form);
  $('flows-status').textContent = '';
  const input = formInput();
  const editing = state.editing;
  submit.disabled = true;
  try {
    const flow = editing ? await recruiting.mutate('flows.update', { id: editing, flow: input }) : await recruiting.mutate('flows.create', input);
    state.flows = editing ? state.flows.map((f) => (f.id === flow.id ? flow : f)) : [flow, ...state.flows];
    resetForm();
    renderFlows();
    $('flows-status').textContent = editing ? `Saved the flow “${flow.name}”.` : `Created the flow “${flow.name}”.`;
    $('flows-list-title').focus();
  } catch (err) {
    const invalid = showErrors(err, $('flow-form-error'), locateFlowError);
    (invalid?.matches('fieldset') ? $('flow-add-stage') : invalid)?.focus();
  } finally {
    submit.disabled = false;
  }
}

export const flowsSection = {
  init() {
    $('flow-form').addEventListener('submit', (e) => void submitFlow(e));
    $('flow-add-stage').addEventListener('click', () => addStage({}, { focus: true }));
    $('flow-cancel').addEventListener('click', () => {
      const id = state.editing;
      resetForm();
      renderFlows();
      (document.querySelector(`#flows-body tr[data-flow-id="${CSS.escape(id ?? '')}"] button`) ?? $('flow-form-title')).focus();
    });
    $('flows-more').addEventListener('click', () => void loadFlows({ more: true }));
    resetForm();
  },
  async show() {
    await Promise.all([fillPositionSelect($('flow-position'), $('flow-position-error')), state.loaded ? null : loadFlows()]);
  },
  reset() {
    state.flows = [];
    state.nextCursor = null;
    state.loaded = false;
    resetForm();
    renderFlows();
    $('flows-status').textContent = '';
  },
};
