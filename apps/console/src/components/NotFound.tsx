import { Link } from 'react-router';

export function NotFound() {
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">No such page</h1>
      <p>There is no such page in the console. <Link to="/">Go to the start page</Link>.</p>
    </section>
  );
}
