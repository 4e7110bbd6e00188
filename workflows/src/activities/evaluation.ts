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
    async loadEvaluationInput(args: { organizationId: string; interviewId: string }): Promise<EvaluationInput> {
      return serviceCall(() => recruiting.forOrganization(args.organizationId).evaluations.input.query({ interviewId: args.interviewId }));
    },
    async generateEvaluation(input: EvaluationInput): Promise<{ result: EvaluationResult; model: string }> {
      return { result: await ai.evaluateInterview(input), model: ai.model };
    },
    async saveEvaluation(args: { organizationId: string; interviewId: string; result: EvaluationResult; model: string }): Promise<void> {
      await serviceCall(() => recruiting.forOrganization(args.organizationId).evaluations.complete.mutate({ interviewId: args.interviewId, result: args.result, model: args.model }));
    },
    async saveEvaluationFailure(args: { organizationId: string; interviewId: string; code: string; message: string }): Promise<void> {
      await serviceCall(() =>
        recruiting.forOrganization(args.organizationId).evaluations.fail.mutate({ interviewId: args.interviewId, error: { code: args.code, message: args.message.slice(0, 2000) }, model: ai.model }),
      );
    },
  };
}
export type EvaluationActivities = ReturnType<typeof createEvaluationActivities>;
