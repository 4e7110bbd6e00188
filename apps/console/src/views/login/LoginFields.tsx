// The e-mail and password fields of a login: the login page's and the session-ended dialog's.
import type { RefObject } from 'react';

export function LoginFields({ idPrefix, email, password, onEmail, onPassword, emailRef, passwordRef }: {
  /** Each form's own ids (the dialog can open over a page with the other form's ids free). */
  idPrefix: string;
  email: string;
  password: string;
  onEmail: (email: string) => void;
  onPassword: (password: string) => void;
  emailRef?: RefObject<HTMLInputElement | null>;
  passwordRef?: RefObject<HTMLInputElement | null>;
}) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${idPrefix}-email`}>E-mail</label>
        <input id={`${idPrefix}-email`} ref={emailRef} name="email" type="email" autoComplete="username" required maxLength={254} value={email} onChange={(e) => onEmail(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-password`}>Password</label>
        <input id={`${idPrefix}-password`} ref={passwordRef} name="password" type="password" autoComplete="current-password" required maxLength={1000} value={password} onChange={(e) => onPassword(e.target.value)} />
      </div>
    </>
  );
}
