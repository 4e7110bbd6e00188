import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { logIn, SESSION_KEY, useSession } from '../../session.js';
import { HOME } from '../../routes.js';
import { Loading } from '../../components/PageState.js';
import { LoginFields } from './LoginFields.js';

/** Only paths inside the console: never another origin (`//evil`, `https:`). */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/login') ? next : `/${HOME}`;
}

export function LoginPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const expired = params.get('reason') === 'expired';
  const session = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const passwordRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const login = useMutation({
    mutationFn: () => logIn(email, password),
    onSuccess: (user) => {
      queryClient.setQueryData(SESSION_KEY, user);
      void navigate(next, { replace: true });
    },
    onError: () => passwordRef.current?.select(),
  });

  useEffect(() => {
    document.title = 'Log in · Hireloop console';
    emailRef.current?.focus();
  }, []);

  if (session.isPending) return <Loading label="Loading the console…" />;
  if (session.data && !login.isPending) return <Navigate to={next} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate();
  };
  return (
    <main id="main" className="page login-page">
      <section className="card login" aria-labelledby="login-title">
        <p className="brand">Hireloop <span className="brand-sub">console</span></p>
        <h1 id="login-title">Log in</h1>
        {expired && !login.isError && <p className="notice" role="status">Your session has ended; log in again.</p>}
        <form onSubmit={submit} aria-describedby={errorId}>
          <LoginFields idPrefix="login" email={email} password={password} onEmail={setEmail} onPassword={setPassword} emailRef={emailRef} passwordRef={passwordRef} />
          <p className="error" id={errorId} role="alert">{login.isError ? login.error.message : ''}</p>
          <button type="submit" disabled={login.isPending}>{login.isPending ? 'Logging in…' : 'Log in'}</button>
        </form>
      </section>
    </main>
  );
}
