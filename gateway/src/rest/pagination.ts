import type { RestContext } from './trpc.js';

/**
 * `Link: <…>; rel="next"` (RFC 8288) for a list page: the same URL with the next cursor.
 * Absolute, on the public base URL, so a client can follow it as is.
 */
export function linkNextPage(ctx: RestContext, nextCursor: string | null): void {
  if (!nextCursor) return;
  const url = new URL(ctx.req.originalUrl, ctx.publicBaseUrl);
  url.searchParams.set('cursor', nextCursor);
  ctx.response.headers['Link'] = `<${ctx.publicBaseUrl}${url.pathname}${url.search}>; rel="next"`;
}
