import { startExtraProcess } from '@hireloop/devstack/testing';

/**
 * An integrations service and a worker of a test file's own, with its settings (`env`: a task
 * queue of its own among them, so that the stack's worker takes none of its work); the worker
 * calls this integrations. `stop()` stops both, the worker first.
 */
export async function integrationsOfItsOwn(env: Record<string, string>, workerEnv: Record<string, string> = {}) {
  const integrations = await startExtraProcess('services/integrations/src/index.ts', 'INTEGRATIONS_PORT', env);
  const worker = await startExtraProcess('workflows/src/worker.ts', 'WORKER_PORT', { ...env, ...workerEnv, INTEGRATIONS_URL: integrations.url }).catch(async (err: unknown) => {
    await integrations.child.stop();
    throw err;
  });
  return {
    integrations,
    worker,
    async stop() {
      await worker.child.stop();
      await integrations.child.stop();
    },
  };
}
