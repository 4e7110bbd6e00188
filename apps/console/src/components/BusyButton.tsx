// A button that is "busy" while the action it started runs: it says so (`aria-disabled`, the busy
// look) and ignores presses, but stays focusable. A `disabled` button loses keyboard focus in
// the browser (focus falls back to <body>), so a keyboard user pressing Generate, Retry or Save
// would have to find their place again after every action.
//
// `busy` comes from the mutation, which reports "pending" a moment after the press (TanStack
// Query notifies on a timer): a double click's second press can come first. So a press also
// holds the button itself until `busy` takes over, or briefly when the press started nothing
// (a form that did not validate).
import { useEffect, useRef, type ComponentPropsWithRef, type MouseEvent } from 'react';

/** How long a press holds the button when its action does not report busy. */
const PRESS_HOLD_MS = 500;

export function BusyButton({ busy, onClick, ...props }: ComponentPropsWithRef<'button'> & { busy: boolean }) {
  const held = useRef(false);
  useEffect(() => {
    if (busy) held.current = false;
  }, [busy]);
  const press = (event: MouseEvent<HTMLButtonElement>) => {
    if (busy || held.current) {
      // Also stops a submit button from submitting its form again.
      event.preventDefault();
      return;
    }
    held.current = true;
    window.setTimeout(() => (held.current = false), PRESS_HOLD_MS);
    onClick?.(event);
  };
  return <button type="button" {...props} aria-disabled={busy || undefined} aria-busy={busy || undefined} onClick={press} />;
}
