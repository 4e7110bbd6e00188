import { createHash } from 'node:crypto';
import express from 'express';
import pg from 'pg';
import { z } from 'zod';
import { loadConfig } from '@hireloop/platform';

/**
 * The baseline for me.bench.ts: GET /api/v1/me as the least a Node server can do — hash the bearer
 * key, one SELECT, JSON out. No identity hop, no rate-limit bucket, no tRPC, no validation.
 * Runs as its own process so it does not share an event loop with autocannon.
 */
const config = loadConfig(
  z.object({
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
    PLAIN_ME_PORT: z.coerce.number().int(),
  }),
);

interface KeyRow {
  id: string;
  organization_id: string;
  org_name: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: Date;
  revoked_at: Date | null;
}

const pool = new pg.Pool({ connectionString: config.DATABASE_URL, application_name: 'bench-plain-me', max: 10 });
const app = express();
app.disable('x-powered-by');
app.set('etag', false);

app.get('/readyz', (_req, res) => void res.json({ status: 'ready' }));
app.get('/api/v1/me', async (req, res) => {
  const key = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  if (!key) return void res.status(401).json({ error: { code: 'missing_api_key' } });
  try {
    const { rows } = await pool.query<KeyRow>(
      `select k.id, k.organization_id, o.name as org_name, k.name, k.prefix, k.scopes, k.created_at, k.revoked_at
       from identity.api_keys k join identity.organizations o on o.id = k.organization_id
       where k.key_hash = $1`,
      [createHash('sha256').update(key).digest('hex')],
    );
    const row = rows[0];
    if (!row) return void res.status(401).json({ error: { code: 'invalid_api_key' } });
    if (row.revoked_at) return void res.status(401).json({ error: { code: 'revoked_api_key' } });
    res.json({
      data: {
        organization: { id: row.organization_id, name: row.org_name },
        key: { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.created_at.toISOString() },
        scopes: row.scopes,
      },
    });
  } catch {
    res.status(500).json({ error: { code: 'internal_error' } });
  }
});

const server = app.listen(config.PLAIN_ME_PORT, '127.0.0.1');
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => {
  server.close();
  server.closeIdleConnections();
  void pool.end().then(() => process.exit(0));
});
