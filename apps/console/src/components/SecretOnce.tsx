// A secret the server shows only once (a new API key, a webhook's signing secret). It takes focus
// as it appears; Done gives focus back to what had it before (the Create button), or the page.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CopyButton } from './CopyButton.js';
import { keepFocus } from './focus.js';

export function SecretOnce({ title, secret, label, onDone, children }: {
  title: string;
  secret: string;
  /** Accessible name of the field that holds the secret. */
  label: string;
  onDone: () => void;
  children?: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const before = useRef<Element | null>(null);
  const titleId = useId();
  useEffect(() => {
    before.current = document.activeElement;
    ref.current?.focus();
  }, []);
  const done = () => {
    onDone();
    keepFocus(before.current);
  };
  return (
    <div className="secret-box" role="region" aria-labelledby={titleId} tabIndex={-1} ref={ref}>
      <h2 id={titleId}>{title}</h2>
      <p><strong>This is shown only now.</strong> Copy it and store it somewhere safe; Hireloop keeps only what it needs to check it.</p>
      {children}
      <div className="secret-row">
        <input type="text" readOnly value={secret} aria-label={label} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={secret} />
        <button type="button" className="secondary" onClick={done}>Done</button>
      </div>
    </div>
  );
}
