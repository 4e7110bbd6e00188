import { createDb, databaseTimeouts, createLogger, createPool, createServiceServer, CursorCodec, migrateDatabase, pingDb, rethrowServiceError, serveUntilSignalled } from '@hireloop/platform';
import { createRecruitingClient } from '@hireloop/recruiting/client';
import { createIntegrationsClient } from '@hireloop/integrations/client';
import { migrations } from '../migrations/index.js';
import { loadIdentityConfig, loginThrottlePolicy } from './config.js';
import { passwords } from './sessions/passwords.js';
import type { IdentityDB } from './db.js';
import { createIdentityRouter } from './router.js';

export type { IdentityRouter } from './router.js';

const config = loadIdentityConfig();
const logger = createLogger('identity', config.LOG_LEVEL);
const pool = createPool({ url: config.DATABASE_URL, applicationName: 'identity', max: 20, timeouts: databaseTimeouts(config) });
const db = createDb<IdentityDB>(pool);

await migrateDatabase(config.DATABASE_URL, 'identity', migrations, databaseTimeouts(config));
const recruiting = createRecruitingClient(config.RECRUITING_URL, config.INTERNAL_TOKEN_KEYS);
const integrations = createIntegrationsClient(config.INTEGRATIONS_URL, config.INTERNAL_TOKEN_KEYS);
const router = createIdentityRouter({
  db,
  cursors: new CursorCodec(config.CURSOR_KEYS),
  auditRetentionDays: config.AUDIT_RETENTION_DAYS,
  auditSources: [
    (org, query) => recruiting.forOrganization(org).audit.list.query(query).catch(rethrowServiceError),
    (org, query) => integrations.forOrganization(org).audit.list.query(query).catch(rethrowServiceError),
  ],
  login: { ttlHours: config.SESSION_TTL_HOURS, throttle: loginThrottlePolicy(config), passwords },
});
const server = createServiceServer({ name: 'identity', router, internalTokenKeys: config.INTERNAL_TOKEN_KEYS, logger, ready: () => pingDb(db) });
await serveUntilSignalled(server, config.IDENTITY_PORT, config.HOST, logger, () => db.destroy());
