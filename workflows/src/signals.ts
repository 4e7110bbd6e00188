/**
 * Signals only workflow code defines. Those another process sends live in
 * `@hireloop/contracts/workflows` (the endpoint loop's wake-up).
 */

/**
 * `endpointFree`: what integrations sent a per-delivery retry workflow (`deliverWebhook`) waiting
 * for a place under its endpoint's cap, before the endpoints' retry loops. Nothing sends it now;
 * the handler stays so that histories holding it replay.
 */
export const ENDPOINT_FREE_SIGNAL = 'endpointFree';
