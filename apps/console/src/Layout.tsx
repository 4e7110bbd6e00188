import { Suspense, useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { HOME, routes } from './routes.js';
import { temporalUiUrl } from './config.js';
import { logOut, SESSION_KEY, SessionProvider, useForgetSession, useSession, type SessionUser } from './session.js';
import { SessionEndedDialog } from './views/login/SessionEndedDialog.js';
import { setSessionEndedHandler } from './trpc.js';
import { Loading, ErrorState } from './components/PageState.js';

/** Sends the browser to the login page, remembering where it was. */
function useToLogin() {
  const navigate = useNavigate();
  const location = useLocation();
  return (reason?: 'expired') => {
    const next = location.pathname + location.search;
    const params = new URLSearchParams({ next });
    if (reason) params.set('reason', reason);
    void navigate(`/login?${params.toString()}`, { replace: true });
  };
}

/** The signed-in frame: header with the nav, account and logout; the view below. */
export function Layout() {
  const session = useSession();
  const toLogin = useToLogin();
  const forget = useForgetSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // The session ended under the page: while reading, the login page says so; while saving, a
  // dialog asks to log in again over the page, so the form keeps what was typed.
  const [relogin, setRelogin] = useState(false);
  const ended = useRef(false);

  useEffect(() => {
    setSessionEndedHandler((during) => {
      if (during === 'mutation') return setRelogin(true);
      // A read of a page behind the dialog waits for the login in it.
      if (relogin) return;
      ended.current = true;
      forget();
      toLogin('expired');
    });
  });

  useEffect(() => {
    if (session.isSuccess && session.data === null) toLogin(ended.current ? 'expired' : undefined);
  });

  const loggedInAgain = (user: SessionUser, same: boolean) => {
    setRelogin(false);
    if (same) {
      queryClient.setQueryData(SESSION_KEY, user);
      // What failed while the session was gone is read again.
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
      return;
    }
    forget();
    queryClient.setQueryData(SESSION_KEY, user);
    void navigate(`/${HOME}`, { replace: true });
  };
  const leave = () => {
    setRelogin(false);
    ended.current = true;
    forget();
  };

  if (session.isPending) return <Loading label="Loading the console…" />;
  if (session.isError) return <main className="page"><ErrorState error={session.error} onRetry={() => void session.refetch()} /></main>;
  if (!session.data) return <Loading label="Opening the login page…" />;
  return (
    <SessionProvider user={session.data}>
      <Header user={session.data} />
      <main id="main" className="page" tabIndex={-1}>
        <TitleAndFocus />
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
      {relogin && <SessionEndedDialog user={session.data} onLoggedIn={loggedInAgain} onLeave={leave} />}
    </SessionProvider>
  );
}

/** The document title follows the route; the main region takes focus on navigation (screen readers). */
function TitleAndFocus() {
  const matches = useMatches();
  const location = useLocation();
  const title = [...matches].reverse().map((m) => (m.handle as { title?: string } | undefined)?.title).find(Boolean);
  useEffect(() => {
    document.title = title ? `${title} · Hireloop console` : 'Hireloop console';
  }, [title]);
  useEffect(() => {
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [location.pathname]);
  return null;
}

function Header({ user }: { user: SessionUser }) {
  const forget = useForgetSession();
  const navigate = useNavigate();
  const logout = useMutation({
    mutationFn: logOut,
    onSettled: () => {
      forget();
      void navigate('/login', { replace: true });
    },
  });
  const temporalUi = temporalUiUrl();
  return (
    <header className="topbar">
      <a className="skip-link" href="#main">Skip to content</a>
      <span className="brand">Hireloop <span className="brand-sub">console</span></span>
      <nav className="main-nav" aria-label="Console">
        <ul>
          {routes.filter((r) => r.nav).map((r) => (
            <li key={r.path}><NavLink to={`/${r.path}`}>{r.title}</NavLink></li>
          ))}
        </ul>
      </nav>
      <nav className="dev-links" aria-label="Developer links">
        <a href="/developers/reference">API reference</a>
        {temporalUi && <a href={temporalUi} target="_blank" rel="noopener noreferrer">Temporal UI</a>}
      </nav>
      <div className="account">
        <span className="org">{user.organization.name}</span>
        <span className="email" data-testid="user-email">{user.email}</span>
        <button type="button" className="secondary" onClick={() => logout.mutate()} disabled={logout.isPending}>Log out</button>
      </div>
    </header>
  );
}
