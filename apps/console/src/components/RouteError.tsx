import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/** What the router shows when a view failed to load or threw while rendering (never a stack). */
export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main id="main" className="page">
      <section className="error-state" role="alert">
        <h1>{notFound ? 'No such page' : 'This page failed to load'}</h1>
        <p>{notFound ? 'There is no such page in the console.' : 'Reload the page to try again; if the console was just updated, a reload fetches the new version.'}</p>
        <p><button type="button" onClick={() => location.reload()}>Reload</button> <Link to="/">Start page</Link></p>
      </section>
    </main>
  );
}
