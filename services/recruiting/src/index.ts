import { createDb, createLogger, createPool, createServiceServer, CursorCodec, migrateSchema, pingDb, serveUntilSignalled } from '@hireloop/platform';
import { migrations } from '../migrations/index.js';
import { loadRecruitingConfig } from './config.js';
import type { RecruitingDB } from './db.js';
import { createRecruitingRouter } from './router.js';

const config = loadRecruitingConfig();
const logger = createLogger('recruiting', config.LOG_LEVEL);
const pool = createPool({ url: config.DATABASE_URL, applicationName: 'recruiting', max: 20 });
const db = createDb<RecruitingDB>(pool);

await migrateSchema(db, 'recruiting', migrations);
const router = createRecruitingRouter({ db, cursors: new CursorCodec(config.INTERNAL_AUTH_SECRET) });
const server = createServiceServer({ name: 'recruiting', router, internalAuthSecret: config.INTERNAL_AUTH_SECRET, logger, ready: () => pingDb(db) });
await serveUntilSignalled(server, config.RECRUITING_PORT, config.HOST, logger, () => db.destroy());
