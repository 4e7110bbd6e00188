// AI job descriptions: start a task (/trpc/integrations/tasks.createJobDescription), poll it every
// second until it ends, show the Markdown, and optionally write it into the task's position.
import { integrations } from './api.js';
import { fillPositionSelect, positionTitle, rememberPosition } from './positions.js';
import { $, button, clearErrors, el, showErrors, splitList } from './ui.js';

const POLL_MS = 1000;
const MAX_POLLS = 300; // five minutes
const MAX_POLL_ERRORS = 3;

// Each new task (or a logout) bumps the generation; a poll loop of an older one stops.
let generation = 0;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function setStatus(text) {
  $('jd-status').textContent = text;
}

const STATUS_TEXT = { queued: 'Queued — waiting for a worker…', running: 'Writing the job description…' };

async function poll(task, mine) {
  let errors = 0;
  for (let i = 0; i < MAX_POLLS; i++) {
    if (task.status === 'succeeded' || task.status === 'failed') return task;
    setStatus(STATUS_TEXT[task.status] ?? task.status);
    await sleep(POLL_MS);
    if (mine !== generation) return null;
    try {
      task = await integrations.query('tasks.get', { id: task.id });
      errors = 0;
    } catch (err) {
      if (++errors >= MAX_POLL_ERRORS) throw err;
    }
    if (mine !== generation) return null;
  }
  throw new Error('The task is still not finished after five minutes; try again later.');
}

function renderResult(task) {
  const result = task.result;
  const parts = [
    el('h3', { text: result.title, attrs: { id: 'jd-result-title', tabindex: '-1' } }),
    el('pre', { className: 'markdown', text: result.markdown, attrs: { tabindex: '0', 'aria-label': 'Job description (Markdown)' } }),
    el('p', { className: 'hint', text: `Written by ${result.model}.` }),
  ];
  if (task.positionId) {
    const title = positionTitle(task.positionId) ?? task.positionId;
    const apply = button(`Apply to position “${title}”`, { className: '' });
    apply.id = 'jd-apply';
    apply.addEventListener('click', () => void applyToPosition(task, apply));
    parts.push(el('div', { className: 'actions' }, apply), el('p', { className: 'error', attrs: { id: 'jd-apply-error', role: 'alert' } }));
  }
  $('jd-result').replaceChildren(...parts);
  $('jd-result').hidden = false;
}

async function applyToPosition(task, apply) {
  apply.disabled = true;
  $('jd-apply-error').textContent = '';
  try {
    const position = await integrations.mutate('tasks.applyToPosition', { id: task.id });
    rememberPosition(position);
    apply.textContent = 'Applied';
    setStatus(`The description of the position “${position.title}” is now this text.`);
    $('jd-status').focus();
  } catch (err) {
    apply.disabled = false;
    $('jd-apply-error').textContent = `Could not apply it: ${err.message}`;
  }
}

function locateJdError(path) {
  const field = path.split('.')[0];
  const ids = { title: 'jd-title', seniority: 'jd-seniority', location: 'jd-location', skills: 'jd-skills', tone: 'jd-tone', language: 'jd-language', positionId: 'jd-position' };
  return ids[field] ? { error: $(`${ids[field]}-error`), input: $(ids[field]) } : null;
}

function formInput(form) {
  const data = new FormData(form);
  const text = (name) => String(data.get(name) ?? '').trim();
  const input = { title: text('title'), tone: text('tone') || 'neutral', language: text('language') || 'en' };
  for (const name of ['seniority', 'location', 'positionId']) if (text(name)) input[name] = text(name);
  const skills = splitList(data.get('skills'));
  if (skills.length) input.skills = skills;
  return input;
}

async function generate(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const submit = form.querySelector('button[type="submit"]');
  clearErrors(form);
  const mine = ++generation;
  $('jd-result').hidden = true;
  $('jd-result').replaceChildren();
  setStatus('');
  submit.disabled = true;
  let task;
  try {
    task = await integrations.mutate('tasks.createJobDescription', formInput(form));
  } catch (err) {
    submit.disabled = false;
    showErrors(err, $('jd-form-error'), locateJdError)?.focus();
    return;
  }
  try {
    const done = await poll(task, mine);
    if (!done) return;
    if (done.status === 'failed') {
      setStatus('');
      $('jd-form-error').textContent = `The job description could not be written: ${done.error?.message ?? 'unknown error'}${done.error?.code ? ` (${done.error.code})` : ''}`;
      $('jd-form-error').focus();
      return;
    }
    setStatus('The job description is ready.');
    renderResult(done);
    $('jd-result-title').focus();
  } catch (err) {
    if (mine !== generation) return;
    setStatus('');
    $('jd-form-error').textContent = `Could not follow the task ${task.id}: ${err.message}`;
  } finally {
    if (mine === generation) submit.disabled = false;
  }
}

export const jobsSection = {
  init() {
    $('jd-form').addEventListener('submit', (e) => void generate(e));
  },
  async show() {
    await fillPositionSelect($('jd-position'), $('jd-position-error'));
  },
  reset() {
    generation++;
    const form = $('jd-form');
    form.reset();
    clearErrors(form);
    form.querySelector('button[type="submit"]').disabled = false;
    setStatus('');
    $('jd-result').replaceChildren();
    $('jd-result').hidden = true;
  },
};
