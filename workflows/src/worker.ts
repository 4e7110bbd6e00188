import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel, type WorkflowBundleOption } from '@temporalio/worker';
import { createLogger, ensureSchedule, laneQueues, stopWhenLauncherDies } from '@hireloop/platform';
import { gatewayDatabaseUrl, loadWorkerConfig } from './config.js';
import { createActivities } from './activities/index.js';
import { heartbeatActivityInterceptors } from './heartbeat.activity-interceptors.js';
import { requestIdActivityInterceptors } from './request-id.activity-interceptors.js';

const config = loadWorkerConfig();
const logger = createLogger('worker', config.LOG_LEVEL);

// Temporal's log lines, the workflows' and activities' included (with their attributes: workflow
// and activity ids, the request id), go through our logger: JSON lines, one redaction, LOG_LEVEL.
const temporalLogger = logger.child({ component: 'temporal' });
const temporalLevel: LogLevel = ({ trace: 'TRACE', debug: 'DEBUG', info: 'INFO', warn: 'WARN' } as const)[config.LOG_LEVEL as string] ?? 'ERROR';
Runtime.install({
  logger: new DefaultLogger(temporalLevel, ({ level, message, meta }) => {
    const method = level === 'TRACE' ? 'trace' : level === 'DEBUG' ? 'debug' : level === 'INFO' ? 'info' : level === 'WARN' ? 'warn' : 'error';
    temporalLogger[method](meta ?? {}, message);
  }),
});

const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS }).catch((err: unknown) => {
  logger.fatal({ err }, `cannot reach Temporal at ${config.TEMPORAL_ADDRESS}`);
  process.exit(1);
});
// Built (dist/worker.js): the workflow code prebundled beside it by `npm run build`.
// From source (npm start, tests): bundled once at start from workflows.ts, for every lane.
const prebundled = fileURLToPath(new URL('./workflow-bundle.js', import.meta.url));
const workflowBundle: WorkflowBundleOption = existsSync(prebundled)
  ? { codePath: prebundled }
  : await bundleWorkflowCode({
      workflowsPath: fileURLToPath(new URL('./workflows.ts', import.meta.url)),
      workflowInterceptorModules: [fileURLToPath(new URL('./request-id.workflow-interceptors.ts', import.meta.url))],
      logger: new DefaultLogger('WARN', ({ message, meta }) => temporalLogger.warn(meta ?? {}, message)),
    });

// One Temporal worker per lane this process runs (WORKER_LANES), each polling its lane's queue
// with slots of its own: a backlog on one lane (webhook retries) never takes another's slots
// (an evaluation, an erasure). Every lane registers every workflow and activity; the queue decides
// what it gets.
const lanes = laneQueues(config.TEMPORAL_TASK_QUEUE);
const activities = createActivities(config);
const workers = await Promise.all(
  config.WORKER_LANES.map((lane) =>
    Worker.create({
      connection,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: lanes[lane],
      workflowBundle,
      interceptors: { activity: [requestIdActivityInterceptors, heartbeatActivityInterceptors] },
      activities,
      maxConcurrentActivityTaskExecutions: config.WORKER_MAX_CONCURRENT_ACTIVITIES,
      maxConcurrentWorkflowTaskExecutions: config.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS,
    }),
  ),
);
const states = () => workers.map((w) => w.getState());

// /readyz answers 200 while every lane polls its task queue.
const health = createServer((req, res) => {
  const ready = states().every((state) => state === 'RUNNING');
  const ok = req.url === '/healthz' || (req.url === '/readyz' && ready);
  res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ status: ok ? 'ok' : 'unavailable', lanes: Object.fromEntries(config.WORKER_LANES.map((lane, i) => [lane, states()[i]])) }));
});
health.listen(config.WORKER_PORT, config.HOST);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  logger.info('shutting down');
  for (const worker of workers) worker.shutdown();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
stopWhenLauncherDies();

// Identity and the gateway have no Temporal client of their own: the worker creates the schedules
// of their purges, in the erasure-and-retention lane.
const scheduler = new Client({ connection: Connection.lazy({ address: config.TEMPORAL_ADDRESS }), namespace: config.TEMPORAL_NAMESPACE });
const purge = { taskQueue: lanes.erasure, formerTaskQueue: lanes.general, everyMinutes: config.PURGE_INTERVAL_MINUTES };
void ensureSchedule(scheduler, { scheduleId: 'purge-identity', workflowType: 'purgeIdentity', ...purge }, logger);
if (gatewayDatabaseUrl(config)) void ensureSchedule(scheduler, { scheduleId: 'purge-gateway', workflowType: 'purgeGateway', ...purge }, logger);
else logger.warn('neither GATEWAY_DATABASE_URL nor DATABASE_URL is set: gateway idempotency records are not purged');

logger.info({ taskQueues: config.WORKER_LANES.map((lane) => lanes[lane]), address: config.TEMPORAL_ADDRESS, ai: config.OPENAI_API_KEY ? config.OPENAI_MODEL : 'offline' }, 'worker running');
try {
  // One lane failing stops them all: the process exits and is restarted whole.
  await Promise.all(workers.map((w) => w.run().finally(stop)));
} finally {
  health.close();
  await scheduler.connection.close();
  await connection.close();
  await Runtime.instance().shutdown();
}
process.exit(0);
