// A button that is "busy" while the action it started runs: it says so (`aria-disabled`, the busy
// look) and ignores presses, but stays focusable. A `disabled` button loses keyboard focus in
// the browser (focus falls back to <body>), so a keyboard user pressing Generate, Retry or Save
// would have to find their place again after every action.
//
// `busy` comes from the mutation, which reports "pending" a moment after the press (TanStack
// Query notifies on a timer), so the second click of a double click can come before it. A click
// that is not a first one (`detail` counts the clicks of a double or triple click; a key press
// is 0) is ignored: one action per double click.
import type { ComponentPropsWithRef, MouseEvent } from 'react';

export function BusyButton({ busy, onClick, ...props }: ComponentPropsWithRef<'button'> & { busy: boolean }) {
  const press = (event: MouseEvent<HTMLButtonElement>) => {
    if (busy || event.detail > 1) {
      // Also stops a submit button from submitting its form again.
      event.preventDefault();
      return;
    }
    onClick?.(event);
  };
  return <button type="button" {...props} aria-disabled={busy || undefined} aria-busy={busy || undefined} onClick={press} />;
}
