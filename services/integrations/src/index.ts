import { Client, Connection } from '@temporalio/client';
import {
  createDb, createLogger, createPool, createServiceServer, CursorCodec, migrateSchema, OutboxPublisher, pingDb, SecretBox, serveUntilSignalled, WorkflowStartRelay,
} from '@hireloop/platform';
import { createRecruitingClient } from '@hireloop/recruiting/client';
import { migrations } from '../migrations/index.js';
import { loadIntegrationsConfig } from './config.js';
import { SCHEMA, type IntegrationsDB } from './db.js';
import { ingestEvents } from './deliveries/deliveries.queries.js';
import { createIntegrationsRouter } from './router.js';

const config = loadIntegrationsConfig();
const logger = createLogger('integrations', config.LOG_LEVEL);
const pool = createPool({ url: config.DATABASE_URL, applicationName: 'integrations', max: 20 });
const db = createDb<IntegrationsDB>(pool);
await migrateSchema(db, SCHEMA, migrations);

const delivery = { allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK, retrySchedule: config.WEBHOOK_RETRY_SCHEDULE, taskQueue: config.TEMPORAL_TASK_QUEUE };
if (delivery.allowLoopback) logger.warn('WEBHOOK_ALLOW_LOOPBACK is on: webhooks may target loopback (development only)');
const router = createIntegrationsRouter({
  db,
  cursors: new CursorCodec(config.CURSOR_KEYS),
  secrets: new SecretBox(config.WEBHOOK_SECRET_KEYS),
  delivery,
  recruiting: createRecruitingClient(config.RECRUITING_URL, config.INTERNAL_TOKEN_KEYS),
});

// Our own events (task.*, ats_event.processed) fan out like every other service's.
const relayTiming = { callTimeoutMs: config.RELAY_CALL_TIMEOUT_MS };
const publisher = new OutboxPublisher(db, SCHEMA, async (events) => void (await ingestEvents(db, delivery, events)), logger, relayTiming);
await publisher.start(config.DATABASE_URL);
const temporal = new Client({ connection: Connection.lazy({ address: config.TEMPORAL_ADDRESS }), namespace: config.TEMPORAL_NAMESPACE });
const relay = new WorkflowStartRelay(db, SCHEMA, temporal, config.TEMPORAL_TASK_QUEUE, logger, relayTiming);
await relay.start(config.DATABASE_URL);

const server = createServiceServer({ name: 'integrations', router, internalTokenKeys: config.INTERNAL_TOKEN_KEYS, logger, ready: () => pingDb(db) });
await serveUntilSignalled(server, config.INTEGRATIONS_PORT, config.HOST, logger, async () => {
  await publisher.stop();
  await relay.stop();
  await temporal.connection.close();
  await db.destroy();
});
