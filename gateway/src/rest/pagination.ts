import type { RestContext } from './trpc.js';

/** A list route's answer: the page's items in the list envelope, the next page in `Link`. */
export function listPage<T>(ctx: RestContext, page: { items: T[]; nextCursor: string | null }): { data: T[] } {
  linkNextPage(ctx, page.nextCursor);
  return { data: page.items };
}

/**
 * `Link: <…>; rel="next"` (RFC 8288) for a list page: the same URL with the next cursor.
 * Absolute, on the public base URL, so a client can follow it as is.
 */
function linkNextPage(ctx: RestContext, nextCursor: string | null): void {
  if (!nextCursor) return;
  const url = new URL(ctx.request.url, ctx.publicBaseUrl);
  url.searchParams.set('cursor', nextCursor);
  ctx.response.headers['Link'] = `<${ctx.publicBaseUrl}${url.pathname}${url.search}>; rel="next"`;
}
