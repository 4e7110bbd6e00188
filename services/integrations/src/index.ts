import { Client, Connection } from '@temporalio/client';
import {
  createDb, createLogger, createPool, createServiceServer, CursorCodec, databaseTimeouts, EventInviteUrls, laneQueues, migrateDatabase, OutboxPublisher, pingDb, SecretBox, sealEventInviteUrls, serveUntilSignalled, WorkflowStartRelay,
} from '@hireloop/platform';
import { createRecruitingClient } from '@hireloop/recruiting/client';
import { migrations } from '../migrations/index.js';
import { loadIntegrationsConfig } from './config.js';
import { SCHEMA, type IntegrationsDB } from './db.js';
import { ingestOwnEvents } from './deliveries/ingest.js';
import { DeliverySender } from './deliveries/delivery-attempt.js';
import { Dispatcher } from './deliveries/dispatcher.js';
import { DeferredFanOut } from './deliveries/deferred-fan-out.js';
import { EndpointRounds } from './deliveries/endpoint-rounds.js';
import { EndpointLoops } from './deliveries/endpoint-loops.js';
import { ReplayQueue } from './webhooks/replay.js';
import type { DeliverySettings } from './deliveries/delivery-settings.js';
import { WebhookHttp } from './deliveries/webhook-http.js';
import { ensurePurgeSchedule } from './deliveries/purge-schedule.js';
import { createIntegrationsRouter } from './router.js';
import { resealWebhookSecrets } from './webhooks/secret-reseal.js';

const config = loadIntegrationsConfig();
const logger = createLogger('integrations', config.LOG_LEVEL);
// Two pools, one per kind of work (docs/operations.md, "Database connections"): requests (the API, the workflows'
// steps: erasure, tasks, ATS events) and the delivery lane (fan-out, dispatcher, the endpoints'
// loops and replays). A storm of dead endpoints then queues for its own connections: before,
// an erasure's step or a DELETE waited behind a hundred loop rounds for one of 20 shared ones.
const pool = createPool({ url: config.DATABASE_URL, applicationName: 'integrations', max: 10, timeouts: databaseTimeouts(config) });
const db = createDb<IntegrationsDB>(pool);
const deliveryPool = createPool({ url: config.DATABASE_URL, applicationName: 'integrations-deliveries', max: 20, timeouts: databaseTimeouts(config) });
const deliveryDb = createDb<IntegrationsDB>(deliveryPool);
await migrateDatabase(config.DATABASE_URL, SCHEMA, migrations, databaseTimeouts(config));

const lanes = laneQueues(config.TEMPORAL_TASK_QUEUE);
const delivery: DeliverySettings = {
  allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
  retrySchedule: config.WEBHOOK_RETRY_SCHEDULE,
  taskQueue: config.TEMPORAL_TASK_QUEUE,
  loopQueue: lanes.deliveries,
  timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  leaseMs: config.WEBHOOK_LEASE_MS,
  endpointConcurrency: config.WEBHOOK_ENDPOINT_CONCURRENCY,
  totalConcurrency: config.WEBHOOK_DISPATCH_CONCURRENCY,
  breakerFailures: config.WEBHOOK_BREAKER_FAILURES,
  backlogMax: config.WEBHOOK_ENDPOINT_BACKLOG_MAX,
  endpointsPerOrg: config.WEBHOOK_ENDPOINTS_PER_ORG_MAX,
  loopRoundsPerRun: config.WEBHOOK_LOOP_ROUNDS_PER_RUN,
  deferredRate: config.WEBHOOK_DEFERRED_RATE,
  deferredBurst: config.WEBHOOK_DEFERRED_BURST,
};
if (delivery.allowLoopback) logger.warn('WEBHOOK_ALLOW_LOOPBACK is on: webhooks may target loopback (development only)');
const secrets = new SecretBox(config.WEBHOOK_SECRET_KEYS);
const resealed = await resealWebhookSecrets(db, secrets);
if (resealed > 0) logger.info({ webhooks: resealed }, 'sealed webhook secrets again under the current WEBHOOK_SECRET_KEYS key');
const http = new WebhookHttp({ allowLoopback: delivery.allowLoopback, timeoutMs: delivery.timeoutMs, connectionsPerEndpoint: delivery.endpointConcurrency });
// Stored interview events hold their invite token sealed; rows from before that (or under an
// older INVITE_TOKEN_KEYS key) are sealed under the current key here (docs/operations.md).
const inviteBox = new SecretBox(config.INVITE_TOKEN_KEYS);
const inviteUrls = new EventInviteUrls(inviteBox, config.PUBLIC_BASE_URL);
const sealedEvents = await sealEventInviteUrls(db, { schema: SCHEMA, name: 'events' }, inviteBox);
if (sealedEvents > 0) logger.info({ events: sealedEvents }, 'sealed the invite URLs of stored events under the current INVITE_TOKEN_KEYS key');
const sender = new DeliverySender(secrets, http, inviteUrls);
const temporal = new Client({ connection: Connection.lazy({ address: config.TEMPORAL_ADDRESS }), namespace: config.TEMPORAL_NAMESPACE });
const relayTiming = { callTimeoutMs: config.RELAY_CALL_TIMEOUT_MS };
const loops = new EndpointLoops(deliveryDb, delivery, temporal, logger, relayTiming);
const rounds = new EndpointRounds({ db: deliveryDb, settings: delivery, sender, temporal, loops, logger });
const router = createIntegrationsRouter({
  db,
  deliveryDb,
  cursors: new CursorCodec(config.CURSOR_KEYS),
  secrets,
  delivery,
  lanes,
  inviteUrls,
  temporal,
  rounds,
  loops,
  logger,
  recruiting: createRecruitingClient(config.RECRUITING_URL, config.INTERNAL_TOKEN_KEYS),
  retention: { outboxHours: config.OUTBOX_RETENTION_HOURS, idempotencyHours: config.IDEMPOTENCY_RETENTION_HOURS, attemptDays: config.DELIVERY_ATTEMPT_RETENTION_DAYS, auditDays: config.AUDIT_RETENTION_DAYS, atsEventDays: config.ATS_EVENTS_RETENTION_DAYS },
});

// Our own events (task.*, ats_event.processed) fan out like every other service's, with the same erasure check (deliveries/ingest.ts).
const publisher = new OutboxPublisher(db, SCHEMA, async (events) => void (await ingestOwnEvents(deliveryDb, delivery, events)), logger, relayTiming);
await publisher.start(config.DATABASE_URL);
const relay = new WorkflowStartRelay(db, SCHEMA, temporal, Object.values(lanes), logger, relayTiming);
await relay.start(config.DATABASE_URL);
const dispatcher = new Dispatcher(deliveryDb, delivery, sender, loops, logger);
await dispatcher.start(config.DATABASE_URL);
await loops.start(config.DATABASE_URL);
const deferred = new DeferredFanOut(deliveryDb, delivery, logger);
await deferred.start(config.DATABASE_URL);
const replays = new ReplayQueue(deliveryDb, delivery, logger, relayTiming);
await replays.start(config.DATABASE_URL);
void ensurePurgeSchedule(temporal, lanes, config.PURGE_INTERVAL_MINUTES, logger);

const server = createServiceServer({ name: 'integrations', router, internalTokenKeys: config.INTERNAL_TOKEN_KEYS, logger, ready: () => pingDb(db) });
await serveUntilSignalled(server, config.INTEGRATIONS_PORT, config.HOST, logger, async () => {
  await deferred.stop();
  await dispatcher.stop();
  await rounds.stop();
  await loops.stop();
  await replays.stop();
  await publisher.stop();
  await relay.stop();
  await http.close();
  await temporal.connection.close();
  await deliveryDb.destroy();
  await db.destroy();
});
