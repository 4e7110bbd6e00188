// A button that is "busy" while the action it started runs: it says so (`aria-disabled`, the busy
// look) and ignores presses, but stays focusable. A `disabled` button loses keyboard focus in
// the browser (focus falls back to <body>), so a keyboard user pressing Generate, Retry or Save
// would have to find their place again after every action.
import type { ButtonHTMLAttributes, MouseEvent } from 'react';

export function BusyButton({ busy, onClick, ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { busy: boolean }) {
  const press = (event: MouseEvent<HTMLButtonElement>) => {
    if (busy) {
      // Also stops a submit button from submitting its form again.
      event.preventDefault();
      return;
    }
    onClick?.(event);
  };
  return <button type="button" {...props} aria-disabled={busy || undefined} aria-busy={busy || undefined} onClick={press} />;
}
