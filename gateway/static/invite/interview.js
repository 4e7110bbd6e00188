// The invite page's script: progressive enhancement only (PRODUCT.md §12). Every step works
// without it, as plain forms; with it
// - the next turn arrives without a page reload (the form is posted with fetch, and the page the
//   server answers with, in the answer itself, replaces <main>; the server renders every state,
//   this file renders none), with an indicator while the interviewer prepares a follow-up, and focus on the new turn;
// - the time left is kept current, and announced politely at a few points, never every second;
// - the integrity signals are recorded per answer when the page allows it (data-signals="on",
//   set by the server only for a consent to a notice that mentions them): paste sizes, focus
//   lost (count and seconds), and active typing seconds. They go with the answer, nothing else.
(() => {
  'use strict';
  const MAX_ANSWER = 10000;
  /** Pauses longer than this between keystrokes are not typing. */
  const TYPING_GAP_MS = 5000;
  /** Minutes left at which the time is announced. */
  const ANNOUNCE_AT = [10, 5, 1, 0];

  const fill = (template, n) => (template || '').replace('{n}', String(n));

  // One turn's state, reset whenever a new turn arrives.
  let turn = null;

  function newTurnState(form) {
    return {
      form,
      collect: form.dataset.signals === 'on',
      paste: [],
      focusLostCount: 0,
      focusLostMs: 0,
      awaySince: null,
      typingMs: 0,
      lastInput: 0,
      busy: false,
      loadedAt: Date.now(),
      remaining: Number(document.getElementById('time-left')?.dataset.remaining ?? 'NaN'),
      previousLeft: NaN,
    };
  }

  function leave() {
    if (!turn || !turn.collect || turn.awaySince !== null) return;
    turn.awaySince = Date.now();
    turn.focusLostCount += 1;
  }
  function back() {
    if (!turn || turn.awaySince === null) return;
    turn.focusLostMs += Date.now() - turn.awaySince;
    turn.awaySince = null;
  }
  window.addEventListener('blur', leave);
  window.addEventListener('focus', back);
  document.addEventListener('visibilitychange', () => (document.visibilityState === 'hidden' ? leave() : back()));

  document.addEventListener('paste', (event) => {
    if (!turn || !turn.collect || event.target?.id !== 'answer') return;
    const text = event.clipboardData ? event.clipboardData.getData('text') : '';
    if (turn.paste.length < 100) turn.paste.push({ at: new Date().toISOString(), characters: characters(text) });
  });

  document.addEventListener('input', (event) => {
    if (!turn || event.target?.id !== 'answer') return;
    const now = Date.now();
    if (turn.collect && turn.lastInput && now - turn.lastInput < TYPING_GAP_MS) turn.typingMs += now - turn.lastInput;
    turn.lastInput = now;
    showCount(characters(event.target.value));
  });

  function signalsJson() {
    if (!turn || !turn.collect) return '';
    back();
    return JSON.stringify({
      paste: turn.paste,
      focusLost: { count: turn.focusLostCount, seconds: Math.round(turn.focusLostMs / 1000) },
      typingSeconds: Math.round(turn.typingMs / 1000),
    });
  }

  /** Characters as the server counts them: code points (an emoji is one, not two UTF-16 units). */
  function characters(text) {
    return Array.from(text).length;
  }

  function showCount(length) {
    const count = document.getElementById('answer-count');
    if (count && turn) count.textContent = fill(turn.form.dataset.textCharacters, length.toLocaleString(document.documentElement.lang === 'de' ? 'de-DE' : 'en-GB'));
  }

  function sentenceFor(left) {
    const data = turn.form.dataset;
    const minutes = Math.max(0, Math.round(left / 60));
    if (left <= 0) return data.textTimeUp;
    if (left < 60) return data.textLastMinute;
    return minutes === 1 ? data.textTimeLeftOne : fill(data.textTimeLeft, minutes);
  }

  /** Keeps the time left current; announces only when it crosses 10, 5, 1 and 0 minutes. */
  function tick() {
    if (!turn || Number.isNaN(turn.remaining)) return;
    const left = turn.remaining - (Date.now() - turn.loadedAt) / 1000;
    const sentence = sentenceFor(left);
    const shown = document.getElementById('time-left');
    // Also past the end: the time-up sentence replaces the last minute's (it stayed, stale).
    if (shown) shown.textContent = sentence;
    if (ANNOUNCE_AT.some((m) => turn.previousLeft > m * 60 && left <= m * 60)) {
      const announcer = document.getElementById('time-announcer');
      if (announcer) announcer.textContent = sentence;
    }
    turn.previousLeft = left;
  }
  setInterval(tick, 5000);

  function setUp() {
    const form = document.getElementById('turn-form');
    turn = form ? newTurnState(form) : null;
    if (!turn) return;
    const answer = document.getElementById('answer');
    if (answer && answer.value) showCount(characters(answer.value));
    turn.previousLeft = turn.remaining;
  }

  function say(message, kind) {
    const preparing = document.getElementById('preparing');
    if (preparing) preparing.textContent = message;
    const answer = document.getElementById('answer');
    // The answer itself is wrong (empty, too long): the field says so, and points at why; any
    // other message (sending, a failed send) is not about the answer, and clears that.
    if (answer && kind === 'invalid') {
      answer.setAttribute('aria-invalid', 'true');
      answer.setAttribute('aria-describedby', 'preparing turn-text answer-hint');
    } else if (answer) {
      answer.removeAttribute('aria-invalid');
      answer.setAttribute('aria-describedby', 'turn-text answer-hint');
    }
    if (kind === 'problem' || kind === 'invalid') answer?.focus();
  }

  /** Shows the page the server answered with, in place, and moves focus to what is new. */
  function swapIn(html) {
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const next = doc.getElementById('main');
    const current = document.getElementById('main');
    if (!next || !current) return false;
    current.replaceWith(document.adoptNode(next));
    document.title = doc.title;
    if (doc.documentElement.lang) document.documentElement.lang = doc.documentElement.lang;
    setUp();
    const problem = document.getElementById('problem');
    const target = problem || document.getElementById('turn-text') || document.querySelector('#main h2') || document.querySelector('#main h1');
    if (target) {
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus();
    }
    return true;
  }

  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.id !== 'turn-form' || !turn) return;
    event.preventDefault();
    if (turn.busy) return;
    const answer = document.getElementById('answer');
    const text = answer ? answer.value : '';
    const data = form.dataset;
    const length = characters(text.trim());
    if (length === 0) return say(data.textEmpty, 'invalid');
    if (length > MAX_ANSWER) return say(fill(data.textTooLong, length.toLocaleString(document.documentElement.lang === 'de' ? 'de-DE' : 'en-GB')), 'invalid');
    const signals = form.querySelector('input[name="signals"]');
    if (signals) signals.value = signalsJson();
    const button = document.getElementById('send');
    turn.busy = true;
    button?.setAttribute('aria-disabled', 'true');
    say(data.textPreparing);
    const body = new URLSearchParams(new FormData(form));
    // The next page comes in the answer itself (one request per turn); without that preference
    // the server redirects to it, as it does for the plain form, and the redirect is followed.
    fetch(form.action, { method: 'POST', body, credentials: 'same-origin', redirect: 'follow', headers: { Prefer: 'return=representation' } })
      .then(async (response) => {
        const type = response.headers.get('content-type') || '';
        // Our own pages (the next turn, or this one with a message) come back as HTML; a failure
        // of ours (5xx) keeps this page and the text, to be sent again.
        if (response.status >= 500 || !type.includes('text/html') || !swapIn(await response.text())) throw new Error('not a page');
      })
      .catch(() => {
        if (turn && turn.form === form) {
          turn.busy = false;
          button?.removeAttribute('aria-disabled');
          say(data.textSendFailed, 'problem');
        }
      });
  });

  setUp();
})();
