import { createIdentityClient } from '@hireloop/identity/client';
import { createIntegrationsClient } from '@hireloop/integrations/client';
import { createRecruitingClient } from '@hireloop/recruiting/client';
import { createAiProvider } from '../ai/provider.js';
import { gatewayDatabaseUrl, type WorkerConfig } from '../config.js';
import { createGatewayRetentionActivities, type GatewayRetentionActivities } from './gateway-retention.js';
import { createEvaluationActivities } from './evaluation.js';
import { createDeliveryActivities } from './webhook-delivery.js';
import { createJobDescriptionActivities } from './job-description.js';
import { createAtsActivities } from './ats-events.js';
import { createRetentionActivities } from './retention.js';
import { createErasureActivities } from './erasure.js';

/** Every activity the worker registers, wired to its dependencies once per process. */
export function createActivities(config: WorkerConfig) {
  const recruiting = createRecruitingClient(config.RECRUITING_URL, config.INTERNAL_TOKEN_KEYS);
  const integrations = createIntegrationsClient(config.INTEGRATIONS_URL, config.INTERNAL_TOKEN_KEYS);
  const ai = createAiProvider({ apiKey: config.OPENAI_API_KEY, baseUrl: config.OPENAI_BASE_URL, model: config.OPENAI_MODEL, timeoutMs: config.OPENAI_TIMEOUT_MS });
  const gatewayDb = gatewayDatabaseUrl(config);
  const gateway = gatewayDb ? createGatewayRetentionActivities({ gatewayDatabaseUrl: gatewayDb, retentionHours: config.IDEMPOTENCY_RETENTION_HOURS }) : null;
  const gatewayRetention: Partial<GatewayRetentionActivities> = gateway ? { purgeIdempotencyKeys: () => gateway.purgeIdempotencyKeys() } : {};
  return {
    ...gatewayRetention,
    ...createEvaluationActivities({ recruiting, ai }),
    ...createDeliveryActivities({ integrations }),
    ...createJobDescriptionActivities({ integrations, ai }),
    ...createAtsActivities({ integrations, recruiting }),
    ...createErasureActivities({ integrations, recruiting, voidStoredResponses: gateway ? (ids) => gateway.voidStoredResponses(ids) : null, pageSize: config.ERASURE_PAGE_SIZE }),
    ...createRetentionActivities({ identity: createIdentityClient(config.IDENTITY_URL, config.INTERNAL_TOKEN_KEYS), recruiting }),
  };
}
