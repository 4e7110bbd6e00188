import { startExtraProcess, testEnv } from '@hireloop/devstack/testing';
import { createRecruitingClient } from '@hireloop/recruiting/client';

/**
 * A recruiting service and a worker of a test's own, on their own task queue, sharing the stack's
 * Postgres and Temporal, with the worker's AI pointed at an OpenAI-compatible test server: the
 * evaluations of interviews scheduled through this service run the real openai SDK path.
 */
export async function startAiWorker(ai: { baseUrl: string }, options: { queue: string; apiKey: string; model: string }) {
  const shared = { TEMPORAL_TASK_QUEUE: options.queue };
  const service = await startExtraProcess('services/recruiting/src/index.ts', 'RECRUITING_PORT', shared);
  const worker = await startExtraProcess('workflows/src/worker.ts', 'WORKER_PORT', {
    ...shared,
    RECRUITING_URL: service.url,
    OPENAI_API_KEY: options.apiKey,
    OPENAI_BASE_URL: ai.baseUrl,
    OPENAI_MODEL: options.model,
  });
  return {
    recruiting: createRecruitingClient(service.url, testEnv().internalTokenKeys),
    async stop() {
      await worker.child.stop();
      await service.child.stop();
    },
  };
}
