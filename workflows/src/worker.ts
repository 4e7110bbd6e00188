import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import { createLogger, ensureSchedule } from '@hireloop/platform';
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
// From source (npm start, tests): bundled at start from workflows.ts.
const prebundled = fileURLToPath(new URL('./workflow-bundle.js', import.meta.url));
const built = existsSync(prebundled);
const worker = await Worker.create({
  connection,
  namespace: config.TEMPORAL_NAMESPACE,
  taskQueue: config.TEMPORAL_TASK_QUEUE,
  ...(built ? { workflowBundle: { codePath: prebundled } } : { workflowsPath: fileURLToPath(new URL('./workflows.ts', import.meta.url)) }),
  interceptors: {
    // Built: the prebundle holds them already (npm run build's --workflow-interceptors).
    workflowModules: built ? [] : [fileURLToPath(new URL('./request-id.workflow-interceptors.ts', import.meta.url))],
    activity: [requestIdActivityInterceptors, heartbeatActivityInterceptors],
  },
  activities: createActivities(config),
  maxConcurrentActivityTaskExecutions: config.WORKER_MAX_CONCURRENT_ACTIVITIES,
});

// /readyz answers 200 while the worker polls its task queue.
const health = createServer((req, res) => {
  const ready = worker.getState() === 'RUNNING';
  const ok = req.url === '/healthz' || (req.url === '/readyz' && ready);
  res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ status: ok ? 'ok' : 'unavailable', worker: worker.getState() }));
});
health.listen(config.WORKER_PORT, config.HOST);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  logger.info('shutting down');
  worker.shutdown();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

// Identity and the gateway have no Temporal client of their own: the worker creates the schedules of their purges.
const scheduler = new Client({ connection: Connection.lazy({ address: config.TEMPORAL_ADDRESS }), namespace: config.TEMPORAL_NAMESPACE });
const taskQueue = config.TEMPORAL_TASK_QUEUE;
void ensureSchedule(scheduler, { scheduleId: 'purge-identity', workflowType: 'purgeIdentity', taskQueue, everyMinutes: config.PURGE_INTERVAL_MINUTES }, logger);
if (gatewayDatabaseUrl(config)) void ensureSchedule(scheduler, { scheduleId: 'purge-gateway', workflowType: 'purgeGateway', taskQueue, everyMinutes: config.PURGE_INTERVAL_MINUTES }, logger);
else logger.warn('neither GATEWAY_DATABASE_URL nor DATABASE_URL is set: gateway idempotency records are not purged');

logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, address: config.TEMPORAL_ADDRESS, ai: config.OPENAI_API_KEY ? config.OPENAI_MODEL : 'offline' }, 'worker running');
try {
  await worker.run();
} finally {
  health.close();
  await scheduler.connection.close();
  await connection.close();
  await Runtime.instance().shutdown();
}
process.exit(0);
