// The console's only way to the server: the gateway's /auth/* routes and its /trpc/<service>/*
// proxy, both with the session cookie. No other origin is ever contacted.

/** An error answer from the gateway (REST shape) or from a service through the tRPC proxy. */
export class ApiError extends Error {
  constructor(status, message, code, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

let onUnauthorized = () => {};

/** Called once by app.js: what to do when a call answers 401 (the session ended). */
export function setUnauthorizedHandler(handler) {
  onUnauthorized = handler;
}

export async function request(url, { method = 'GET', body } = {}) {
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return null;
  const payload = await res.json().catch(() => null);
  if (res.ok && payload) return payload;
  const error = payload?.error ?? {};
  if (res.status === 401) onUnauthorized();
  throw new ApiError(
    res.status,
    error.message ?? `The request failed (HTTP ${res.status}).`,
    error.data?.appCode ?? error.code,
    error.data?.appDetails ?? error.details ?? [],
  );
}

/**
 * tRPC v11 over HTTP without a transformer, one client per service behind the gateway:
 * queries are GET ?input=<JSON>, mutations POST <JSON>; the answer is {result: {data}}.
 */
function trpcClient(service) {
  return {
    async query(path, input) {
      const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
      return (await request(`/trpc/${service}/${path}${query}`)).result.data;
    },
    async mutate(path, input) {
      return (await request(`/trpc/${service}/${path}`, { method: 'POST', body: input })).result.data;
    },
  };
}

export const identity = trpcClient('identity');
export const recruiting = trpcClient('recruiting');
export const integrations = trpcClient('integrations');
