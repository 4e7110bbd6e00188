import { useState } from 'react';

/** Copies text with the Clipboard API; says so in a live region (or asks to copy by hand). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [status, setStatus] = useState('');
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setStatus('Copied.'),
      () => setStatus('Copying is not allowed here; select the text and copy it.'),
    );
  };
  return (
    <>
      <button type="button" onClick={copy}>{label}</button>
      <span className="hint copy-status" role="status">{status}</span>
    </>
  );
}
