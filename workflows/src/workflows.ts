// Every workflow the worker runs. Workflow code is deterministic and imports activities as types only.
export { ping } from './ping.workflow.js';
export { evaluateInterview } from './evaluate-interview.workflow.js';
export { deliverWebhook } from './deliver-webhook.workflow.js';
export { retryWebhookEndpoint } from './retry-webhook-endpoint.workflow.js';
export { purgeWebhookEvents } from './purge-webhook-events.workflow.js';
export { purgeRecruiting } from './purge-recruiting.workflow.js';
export { purgeIdentity } from './purge-identity.workflow.js';
export { purgeGateway } from './purge-gateway.workflow.js';
export { generateJobDescription } from './generate-job-description.workflow.js';
export { processAtsEvent } from './process-ats-event.workflow.js';
export { eraseCandidate } from './erase-candidate.workflow.js';
