// Where keyboard focus goes when the control that had it goes away (an action's button replaced
// by its result, a row's button by the row's new state, a dialog's opener by the change it made).
// Left alone, the browser puts focus on <body>, and a keyboard or screen-reader user starts again
// from the top of the page.

/**
 * True when nothing on the page has focus any more: it fell back to <body>, or it is still on an
 * element the browser is about to take it from (in a dialog just closed, removed, or disabled).
 */
function focusLost(): boolean {
  const active = document.activeElement;
  if (active === null || active === document.body) return true;
  if (!active.isConnected || !active.checkVisibility()) return true;
  return active instanceof HTMLButtonElement && active.disabled;
}

/**
 * After the current update has settled: if focus was lost, it goes to `target` (an element, or an
 * element's id; give it `tabIndex={-1}` unless it is focusable) while it is on the page, or else
 * to the page's main region.
 */
export function keepFocus(target?: string | Element | null): void {
  const rescue = () => {
    if (!focusLost()) return false;
    const element = typeof target === 'string' ? document.getElementById(target) : target;
    const to = element?.isConnected && element instanceof HTMLElement ? element : document.getElementById('main');
    to?.focus();
    return true;
  };
  // Looked at again a little later too: the control may go with a render that follows (a list's
  // refetch drops the row whose button got focus back from a dialog).
  requestAnimationFrame(() => {
    if (rescue()) return;
    let looks = 0;
    const timer = window.setInterval(() => {
      if (rescue() || ++looks === LOOKS) window.clearInterval(timer);
    }, LOOK_EVERY_MS);
  });
}

/** For about a second after an action: long enough for its refetch, too short to override the user. */
const LOOKS = 10;
const LOOK_EVERY_MS = 100;
