import type { EvaluationResult } from '@hireloop/contracts';
import type { createRecruitingClient } from '@hireloop/recruiting/client';
import type { AiProvider, EvaluationInput } from '../ai/provider.js';
import { serviceCall } from './service-call.js';

export interface EvaluationDeps {
  recruiting: ReturnType<typeof createRecruitingClient>;
  ai: AiProvider;
}

/** Activities of the interview evaluation workflow, built from their dependencies. */
export function createEvaluationActivities({ recruiting, ai }: EvaluationDeps) {
  return {
    /**
     * Loads the answers, asks the AI and stores its evaluation, in one activity: the answers, the
     * candidate's name and the evaluation text never pass through the workflow, whose history
     * outlives an erasure (PRODUCT.md §8, §10). A retry asks the AI again; storing is idempotent.
     */
    async evaluateAndSave(args: { organizationId: string; interviewId: string }): Promise<void> {
      const client = recruiting.forOrganization(args.organizationId);
      const input: EvaluationInput = await serviceCall(() => client.evaluations.input.query({ interviewId: args.interviewId }));
      const result: EvaluationResult = await ai.evaluateInterview(input);
      await serviceCall(() => client.evaluations.complete.mutate({ interviewId: args.interviewId, result, model: ai.model }));
    },
    async saveEvaluationFailure(args: { organizationId: string; interviewId: string; code: string; message: string }): Promise<void> {
      await serviceCall(() =>
        recruiting.forOrganization(args.organizationId).evaluations.fail.mutate({ interviewId: args.interviewId, error: { code: args.code, message: args.message.slice(0, 2000) }, model: ai.model }),
      );
    },
  };
}
export type EvaluationActivities = ReturnType<typeof createEvaluationActivities>;
