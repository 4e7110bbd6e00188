import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { createIdentityClient } from '@hireloop/identity/client';
import { createRecruitingClient } from '@hireloop/recruiting/client';
import type { Scope } from '@hireloop/contracts';
import { startChild, waitForHttp, type ChildHandle } from './child-process.js';
import { freePort } from './ports.js';
import { ROOT } from './paths.js';

/**
 * Helpers for tests that run against the stack `npm test` started (see test-run.ts): its URLs
 * and secrets arrive as env vars.
 */
export function testEnv() {
  const need = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: run tests through \`npm test\` (it starts the stack).`);
    return value;
  };
  return {
    gatewayUrl: need('GATEWAY_URL'),
    identityUrl: need('IDENTITY_URL'),
    recruitingUrl: need('RECRUITING_URL'),
    internalTokenKeys: need('INTERNAL_TOKEN_KEYS'),
    databaseUrl: need('DATABASE_URL'),
    temporalAddress: need('TEMPORAL_ADDRESS'),
    demoOrgId: need('TEST_DEMO_ORG_ID'),
    adminEmail: need('TEST_ADMIN_EMAIL'),
    adminPassword: need('TEST_ADMIN_PASSWORD'),
  };
}

export function testRecruiting() {
  const env = testEnv();
  return createRecruitingClient(env.recruitingUrl, env.internalTokenKeys);
}

export function testIdentity() {
  const env = testEnv();
  return createIdentityClient(env.identityUrl, env.internalTokenKeys);
}

/** A fresh organization with one key, so tests never see each other's data. */
export async function newOrganizationWithKey(scopes: Scope[] = ['read', 'write', 'admin'], rateLimitPerMinute?: number) {
  const identity = testIdentity();
  const organization = await identity.system.organizations.create.mutate({ name: `Test org ${Math.random().toString(36).slice(2, 8)}` });
  const key = await identity.forOrganization(organization.id).apiKeys.create.mutate({ name: 'test', scopes, rateLimitPerMinute });
  return { organization, key: key.key, keyId: key.id };
}

export async function newKey(orgId: string, scopes: Scope[], rateLimitPerMinute?: number) {
  const key = await testIdentity().forOrganization(orgId).apiKeys.create.mutate({ name: 'test', scopes, rateLimitPerMinute });
  return { key: key.key, keyId: key.id };
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** One HTTP call to the gateway; the body is parsed when it is JSON. */
export async function call<T = Record<string, any>>(
  method: string,
  path: string,
  options: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; baseUrl?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['authorization'] = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${options.baseUrl ?? testEnv().gatewayUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/**
 * Starts one more process of the platform against the test stack (a second gateway sharing one
 * rate limit, a recruiting service and worker on their own task queue…) and waits for /healthz.
 */
export async function startExtraProcess(entry: string, portEnv: string, extraEnv: Record<string, string> = {}): Promise<{ url: string; port: number; child: ChildHandle; logs: string[] }> {
  const port = await freePort();
  const logs: string[] = [];
  const child = startChild({
    name: entry,
    command: process.execPath,
    args: ['--import', 'tsx', join(ROOT, entry)],
    env: { ...process.env, [portEnv]: String(port), LOG_LEVEL: 'warn', ...extraEnv },
    cwd: ROOT,
    log: (line) => logs.push(line),
  });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, child, 90_000);
  } catch (err) {
    // A process that was slow to come up would otherwise live on and keep the test file running.
    await child.stop();
    throw new Error(`${(err as Error).message}\n${logs.join('\n')}`);
  }
  return { url: `http://127.0.0.1:${port}`, port, child, logs };
}

export function startExtraGateway(extraEnv: Record<string, string> = {}) {
  return startExtraProcess('gateway/src/index.ts', 'GATEWAY_PORT', extraEnv);
}

/** Polls `read` until `done` holds or the time is up; returns the last value read. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A loopback HTTP server for tests, listening on a free port. */
export async function startTestServer(handler: (req: IncomingMessage, body: string) => { status: number; body?: string; headers?: Record<string, string> } | Promise<{ status: number; body?: string; headers?: Record<string, string> }>): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void Promise.resolve(handler(req, Buffer.concat(chunks).toString('utf8'))).then((out) => {
        res.writeHead(out.status, { 'content-type': 'application/json', ...out.headers });
        res.end(out.body ?? '');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, server, close: () => new Promise((r) => server.close(() => r())) };
}

