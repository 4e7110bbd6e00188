import type { JobDescriptionResult } from '@hireloop/contracts';
import type { createIntegrationsClient } from '@hireloop/integrations/client';
import type { AiProvider, JobDescriptionInput } from '../ai/provider.js';
import { serviceCall } from './service-call.js';

export interface JobDescriptionDeps {
  integrations: ReturnType<typeof createIntegrationsClient>;
  ai: AiProvider;
}

/** Activities of the AI job-description task workflow. */
export function createJobDescriptionActivities({ integrations, ai }: JobDescriptionDeps) {
  return {
    async markTaskRunning(args: { organizationId: string; taskId: string }): Promise<void> {
      await serviceCall(() => integrations.forOrganization(args.organizationId).tasks.markRunning.mutate({ id: args.taskId }));
    },
    /**
     * Loads the request kept with the task, asks the AI and stores its result, in one activity: the
     * title, skills and the generated text never pass through the workflow, whose history holds ids
     * only (CLARIFICATIONS.md). A retry asks the AI again; storing is idempotent (an ended task
     * stays as it ended).
     */
    async writeAndSaveJobDescription(args: { organizationId: string; taskId: string }): Promise<void> {
      const tasks = integrations.forOrganization(args.organizationId).tasks;
      const input: JobDescriptionInput = await serviceCall(() => tasks.jobDescriptionInput.query({ id: args.taskId }));
      const result = await ai.writeJobDescription(input);
      await serviceCall(() => tasks.succeed.mutate({ id: args.taskId, result: { ...result, model: ai.model } }));
    },
    /** Only for `jd:` workflows started with the request in their input, before it took ids only. */
    async writeJobDescription(input: JobDescriptionInput): Promise<JobDescriptionResult & { model: string }> {
      return { ...(await ai.writeJobDescription(input)), model: ai.model };
    },
    /** Only for `jd:` workflows started with the request in their input, before it took ids only. */
    async completeTask(args: { organizationId: string; taskId: string; result: JobDescriptionResult & { model: string } }): Promise<void> {
      await serviceCall(() => integrations.forOrganization(args.organizationId).tasks.succeed.mutate({ id: args.taskId, result: args.result }));
    },
    async failTask(args: { organizationId: string; taskId: string; code: string; message: string }): Promise<void> {
      await serviceCall(() => integrations.forOrganization(args.organizationId).tasks.fail.mutate({ id: args.taskId, error: { code: args.code, message: args.message.slice(0, 2000) } }));
    },
  };
}
export type JobDescriptionActivities = ReturnType<typeof createJobDescriptionActivities>;
