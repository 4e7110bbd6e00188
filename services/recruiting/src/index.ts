import { Client, Connection } from '@temporalio/client';
import {
  createDb, createLogger, createPool, createServiceServer, CursorCodec, databaseTimeouts, ensureSchedule, SecretBox, sealEventInviteUrls, integrationsEventSink, InternalTokenCache, laneQueues, migrateDatabase, OutboxPublisher, pingDb,
  serveUntilSignalled, WorkflowStartRelay,
} from '@hireloop/platform';
import { migrations } from '../migrations/index.js';
import { loadRecruitingConfig } from './config.js';
import { SCHEMA, type RecruitingDB } from './db.js';
import { InviteTokens, resealInviteTokens, sealLegacyInviteTokens } from './interviews/invite-token.js';
import { expireOverdueInterviews } from './interviews/interviews.queries.js';
import { createRecruitingRouter } from './router.js';
import { createFollowUpWriter } from './interviewer/follow-up-writer.js';

const config = loadRecruitingConfig();
const logger = createLogger('recruiting', config.LOG_LEVEL);
const pool = createPool({ url: config.DATABASE_URL, applicationName: 'recruiting', max: 20, timeouts: databaseTimeouts(config), settings: { 'hireloop.sync_commit_window_ms': String(config.SYNC_COMMIT_WINDOW_MS) } });
const db = createDb<RecruitingDB>(pool);
await migrateDatabase(config.DATABASE_URL, SCHEMA, migrations, databaseTimeouts(config));

const inviteBox = new SecretBox(config.INVITE_TOKEN_KEYS);
const tokens = new InviteTokens(inviteBox, config.PUBLIC_BASE_URL.replace(/\/$/, ''), config.INTERNAL_AUTH_SECRET);
const backfill = await sealLegacyInviteTokens(db, tokens, logger);
if (backfill.sealed > 0) logger.info(backfill, 'sealed the invite tokens of interviews created before tokens were random');
const resealed = await resealInviteTokens(db, tokens);
if (resealed > 0) logger.info({ resealed }, 'sealed invite tokens again under the current INVITE_TOKEN_KEYS key');
// Interview events in the outbox hold their invite token sealed too (rows from before that included).
const sealedEvents = await sealEventInviteUrls(db, { schema: SCHEMA, name: 'outbox' }, inviteBox);
if (sealedEvents > 0) logger.info({ events: sealedEvents }, 'sealed the invite URLs of outbox events under the current INVITE_TOKEN_KEYS key');
const lanes = laneQueues(config.TEMPORAL_TASK_QUEUE);
const writer = createFollowUpWriter({ apiKey: config.OPENAI_API_KEY, baseUrl: config.OPENAI_BASE_URL, model: config.OPENAI_MODEL, timeoutMs: config.INTERVIEWER_FOLLOW_UP_TIMEOUT_MS });
const interviewer = { writer, followUpTimeoutMs: config.INTERVIEWER_FOLLOW_UP_TIMEOUT_MS, logger };
const router = createRecruitingRouter({ interviewer, db, cursors: new CursorCodec(config.CURSOR_KEYS), tokens, lanes, retentionAnswersDays: config.RETENTION_ANSWERS_DAYS, syncLagMs: 2 * config.SYNC_COMMIT_WINDOW_MS, outboxRetentionHours: config.OUTBOX_RETENTION_HOURS, auditRetentionDays: config.AUDIT_RETENTION_DAYS, idempotencyRetentionHours: config.IDEMPOTENCY_RETENTION_HOURS });

// Workflow starts written with a change (evaluation) are relayed to Temporal after commit.
const temporal = new Client({ connection: Connection.lazy({ address: config.TEMPORAL_ADDRESS }), namespace: config.TEMPORAL_NAMESPACE });
const relayTiming = { callTimeoutMs: config.RELAY_CALL_TIMEOUT_MS };
const relay = new WorkflowStartRelay(db, SCHEMA, temporal, Object.values(lanes), logger, relayTiming);
await relay.start(config.DATABASE_URL);
void ensureSchedule(temporal, { scheduleId: 'purge-recruiting', workflowType: 'purgeRecruiting', taskQueue: lanes.erasure, formerTaskQueue: lanes.general, everyMinutes: config.PURGE_INTERVAL_MINUTES }, logger);
// Every event in our outbox goes to the integrations service for webhook fan-out.
const sink = integrationsEventSink(config.INTEGRATIONS_URL, new InternalTokenCache(config.INTERNAL_TOKEN_KEYS));
const publisher = new OutboxPublisher(db, SCHEMA, sink, logger, relayTiming);
await publisher.start(config.DATABASE_URL);

// Invites past their expiry become `expired` (state in Postgres, so it survives restarts).
const sweep = setInterval(() => {
  expireOverdueInterviews(db, tokens).then(
    (n) => n > 0 && logger.info({ expired: n }, 'expired overdue interviews'),
    (err: unknown) => logger.warn({ err }, 'expiry sweep failed'),
  );
}, config.EXPIRY_SWEEP_SECONDS * 1000);

const server = createServiceServer({ name: 'recruiting', router, internalTokenKeys: config.INTERNAL_TOKEN_KEYS, logger, ready: () => pingDb(db) });
await serveUntilSignalled(server, config.RECRUITING_PORT, config.HOST, logger, async () => {
  clearInterval(sweep);
  await publisher.stop();
  await relay.stop();
  await temporal.connection.close();
  await db.destroy();
});
