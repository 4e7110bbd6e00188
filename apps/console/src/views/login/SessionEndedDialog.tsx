// The session ended while the recruiter was saving something (a 401 on a mutation): log in again
// here, over the page, so what they typed stays in the form and they can save again. Leaving for
// the login page would lose it. Logging in as someone else starts over on the home page: the
// form's values belong to the first user's organization.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { logIn, type SessionUser } from '../../session.js';
import { BusyButton } from '../../components/BusyButton.js';
import { LoginFields } from './LoginFields.js';

export function SessionEndedDialog({ user, onLoggedIn, onLeave }: {
  /** Who was signed in: the e-mail is filled in, and logging in as them keeps the page. */
  user: SessionUser;
  /** Logged in again: `same` when as the same user (the page and its forms stay). */
  onLoggedIn: (user: SessionUser, same: boolean) => void;
  /** Gives up here and goes to the login page. */
  onLeave: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const errorId = useId();
  const [email, setEmail] = useState(user.email);
  const [password, setPassword] = useState('');
  const login = useMutation({
    mutationFn: () => logIn(email, password),
    onSuccess: (next) => {
      // Closed before it unmounts, so the browser gives focus back to what had it (the Save button).
      ref.current?.close();
      onLoggedIn(next, next.id === user.id);
    },
    onError: () => passwordRef.current?.select(),
  });
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    passwordRef.current?.focus();
    return () => dialog?.close();
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate();
  };
  return (
    // Escape does not close it: the page behind cannot be used without a session.
    <dialog ref={ref} className="confirm" aria-labelledby={titleId} aria-describedby={`${titleId}-why`} onCancel={(e) => e.preventDefault()}>
      <h2 id={titleId}>Your session has ended</h2>
      <p id={`${titleId}-why`}>Nothing was saved. Log in again to go on: what you typed on this page is kept, so you can save it again.</p>
      <form onSubmit={submit} aria-describedby={errorId}>
        <LoginFields idPrefix="relogin" email={email} password={password} onEmail={setEmail} onPassword={setPassword} passwordRef={passwordRef} />
        <p className="error" id={errorId} role="alert">{login.isError ? login.error.message : ''}</p>
        <div className="actions">
          <BusyButton type="submit" busy={login.isPending}>{login.isPending ? 'Logging in…' : 'Log in'}</BusyButton>
          <button type="button" className="secondary" onClick={onLeave}>Go to the login page</button>
        </div>
      </form>
    </dialog>
  );
}
