import { createServer } from 'node:http';
import { createDb, createLogger, createPool, databaseTimeouts, migrateDatabase, pingDb, SecretBox, serveUntilSignalled } from '@hireloop/platform';
import { indexStoredSubjects, sealStoredResponses } from './api/idempotency.js';
import { answerParserErrors } from './api/parser-errors.js';
import { migrations } from '../migrations/index.js';
import { createGatewayApp } from './app.js';
import { loadGatewayConfig } from './config.js';
import type { GatewayDB } from './db.js';
import { createServiceClients } from './services.js';

const config = loadGatewayConfig();
const logger = createLogger('gateway', config.LOG_LEVEL);
const pool = createPool({ url: config.DATABASE_URL, applicationName: 'gateway', max: 20, timeouts: databaseTimeouts(config) });
const db = createDb<GatewayDB>(pool);
await migrateDatabase(config.DATABASE_URL, 'gateway', migrations, databaseTimeouts(config));
const storedResponses = new SecretBox(config.STORED_RESPONSE_KEYS);
const sealed = await sealStoredResponses(db, storedResponses);
if (sealed > 0) logger.info({ sealed }, 'sealed idempotent responses stored in clear');
const indexed = await indexStoredSubjects(db, storedResponses);
if (indexed > 0) logger.info({ indexed }, 'recorded whom stored idempotent responses name, for erasure');

const serviceUrls = { identity: config.IDENTITY_URL, recruiting: config.RECRUITING_URL, integrations: config.INTEGRATIONS_URL };
const services = createServiceClients(serviceUrls, config.INTERNAL_TOKEN_KEYS, { timeoutMs: config.SERVICE_CALL_TIMEOUT_MS });
const app = createGatewayApp({
  services,
  serviceUrls,
  db,
  logger,
  publicBaseUrl: config.PUBLIC_BASE_URL.replace(/\/$/, ''),
  internalTokenKeys: config.INTERNAL_TOKEN_KEYS,
  storedResponses,
  sessionTtlHours: config.SESSION_TTL_HOURS,
  trustProxy: config.TRUST_PROXY,
  temporalUiUrl: config.TEMPORAL_UI_URL,
  ready: async () => {
    await pingDb(db);
    for (const url of Object.values(serviceUrls)) {
      const res = await fetch(`${url}/readyz`);
      if (!res.ok) throw new Error(`${url} not ready`);
    }
  },
});
const server = createServer(app);
answerParserErrors(server, config.PUBLIC_BASE_URL);
// An `Expect` other than 100-continue: Node's own answer is a bare 417 without the headers every
// response carries (PRODUCT.md §3, §11). RFC 9110 §10.1.1 lets a server serve it instead ("MAY
// respond with a 417"): the request is answered as if the field were not there.
server.on('checkExpectation', app);
await serveUntilSignalled(server, config.GATEWAY_PORT, config.HOST, logger, () => db.destroy());
