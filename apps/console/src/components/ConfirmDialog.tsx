// A confirmation in the browser's own modal <dialog> (focus kept inside, Escape cancels).
import { useEffect, useId, useRef, type ReactNode } from 'react';

export function ConfirmDialog({ open, title, children, confirmLabel, onConfirm, onCancel, busy = false, danger = true }: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  danger?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // Several dialogs can sit on one page (close and apply on a position): each title its own id.
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="confirm" aria-labelledby={titleId} onCancel={(e) => { e.preventDefault(); onCancel(); }}>
      <h2 id={titleId}>{title}</h2>
      {children}
      <div className="actions">
        <button type="button" className={danger ? 'danger' : ''} onClick={onConfirm} disabled={busy}>{confirmLabel}</button>
        <button type="button" className="secondary" onClick={onCancel} disabled={busy} autoFocus>Cancel</button>
      </div>
    </dialog>
  );
}
