import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, Navigate } from 'react-router';
// The DOM build of the provider: it can render a navigation with flushSync (components/searchParams.ts).
import { RouterProvider } from 'react-router/dom';
import { queryClient } from './trpc.js';
import { prefetchSession } from './session.js';
import { HOME, routes } from './routes.js';
import { Layout } from './Layout.js';
import { LoginPage } from './views/login/LoginPage.js';
import { NotFound } from './components/NotFound.js';
import { RouteError } from './components/RouteError.js';
import { Loading } from './components/PageState.js';
import './styles.css';

const router = createBrowserRouter(
  [
    { path: 'login', element: <LoginPage /> },
    {
      path: '/',
      element: <Layout />,
      errorElement: <RouteError />,
      children: [
        { index: true, element: <Navigate to={HOME} replace /> },
        ...routes.map((r) => ({
          path: r.path,
          handle: { title: r.title },
          // What a full load shows in the layout while the view's code arrives (without one, the
          // router renders nothing and warns "No `HydrateFallback` element provided").
          hydrateFallbackElement: <Loading label="Loading the page…" />,
          lazy: async () => ({ Component: (await r.load()).default }),
        })),
        { path: '*', element: <NotFound /> },
      ],
    },
  ],
  { basename: '/console' },
);

prefetchSession(queryClient);
const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
