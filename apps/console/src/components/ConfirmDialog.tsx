// A confirmation in the browser's own modal <dialog> (focus kept inside, Escape cancels). When it
// closes, the browser gives focus back to the button that opened it; when the confirmed action
// removed that button (a revoked key's Revoke, a cancelled interview's Cancel), focus goes to
// `focusAfter` (an element's id), or to the page's main region.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { BusyButton } from './BusyButton.js';
import { keepFocus } from './focus.js';

export function ConfirmDialog({ open, title, children, confirmLabel, onConfirm, onCancel, busy = false, danger = true, focusAfter }: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  danger?: boolean;
  focusAfter?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  // Several dialogs can sit on one page (close and apply on a position): each title its own id.
  const titleId = useId();
  const focusAfterRef = useRef(focusAfter);
  useEffect(() => {
    focusAfterRef.current = focusAfter;
  });
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // The safe choice first: React's autoFocus sets no `autofocus` attribute for the dialog to
      // find, so the browser would focus the first button, the destructive one.
      cancelRef.current?.focus();
    }
    if (!open && dialog.open) {
      dialog.close();
      keepFocus(focusAfterRef.current);
    }
  }, [open]);
  // Unmounted (open or not): the confirmed action may have removed the part of the page that held it.
  useEffect(() => () => keepFocus(focusAfterRef.current), []);
  return (
    <dialog ref={ref} className="confirm" aria-labelledby={titleId} onCancel={(e) => { e.preventDefault(); onCancel(); }}>
      <h2 id={titleId}>{title}</h2>
      {children}
      <div className="actions">
        <BusyButton className={danger ? 'danger' : ''} onClick={onConfirm} busy={busy}>{confirmLabel}</BusyButton>
        <BusyButton className="secondary" onClick={onCancel} busy={busy} ref={cancelRef}>Cancel</BusyButton>
      </div>
    </dialog>
  );
}
