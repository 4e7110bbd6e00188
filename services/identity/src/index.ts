import { createDb, databaseTimeouts, createLogger, createPool, createServiceServer, CursorCodec, migrateDatabase, pingDb, serveUntilSignalled } from '@hireloop/platform';
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
const router = createIdentityRouter({
  db,
  cursors: new CursorCodec(config.CURSOR_KEYS),
  login: { ttlHours: config.SESSION_TTL_HOURS, throttle: loginThrottlePolicy(config), passwords },
});
const server = createServiceServer({ name: 'identity', router, internalTokenKeys: config.INTERNAL_TOKEN_KEYS, logger, ready: () => pingDb(db) });
await serveUntilSignalled(server, config.IDENTITY_PORT, config.HOST, logger, () => db.destroy());
