// ATS stage mappings (/trpc/recruiting/ats.setStageMappings): when an application from this ATS
// source enters one of these stages, Hireloop schedules an AI interview. Saving replaces the list.
import { recruiting } from './api.js';
import { $, clearErrors, el, showErrors, splitList } from './ui.js';

function locateAtsError(path) {
  const field = path.split('.')[0];
  if (field === 'source') return { error: $('ats-source-error'), input: $('ats-source') };
  if (field === 'stages') return { error: $('ats-stages-error'), input: $('ats-stages') };
  return null;
}

function showSaved(result) {
  const stages = result.stages.length
    ? el('ul', { className: 'chips' }, ...result.stages.map((s) => el('li', { className: 'chip', text: s })))
    : el('p', { className: 'muted', text: 'No stages: applications from this source no longer trigger AI interviews.' });
  $('ats-result').replaceChildren(
    el('h3', { text: 'Saved', attrs: { id: 'ats-result-title', tabindex: '-1' } }),
    el('p', {}, 'Source ', el('code', { text: result.source }), result.stages.length ? ' — stages that schedule an AI interview:' : ''),
    stages,
  );
  $('ats-result').hidden = false;
  $('ats-result-title').focus();
}

async function saveMappings(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const submit = form.querySelector('button[type="submit"]');
  clearErrors(form);
  const data = new FormData(form);
  const input = { source: String(data.get('source') ?? '').trim(), stages: splitList(data.get('stages')) };
  submit.disabled = true;
  try {
    showSaved(await recruiting.mutate('ats.setStageMappings', input));
  } catch (err) {
    $('ats-result').hidden = true;
    showErrors(err, $('ats-form-error'), locateAtsError)?.focus();
  } finally {
    submit.disabled = false;
  }
}

export const atsSection = {
  init() {
    $('ats-form').addEventListener('submit', (e) => void saveMappings(e));
  },
  async show() {},
  reset() {
    const form = $('ats-form');
    form.reset();
    clearErrors(form);
    $('ats-result').replaceChildren();
    $('ats-result').hidden = true;
  },
};
