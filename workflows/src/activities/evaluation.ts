import type { createRecruitingClient } from '@hireloop/recruiting/client';
import type { AiProvider } from '../ai/provider.js';
import { serviceCall } from './service-call.js';

export interface EvaluationDeps {
  recruiting: ReturnType<typeof createRecruitingClient>;
  ai: AiProvider;
}

/** Ids of one evaluation version; workflows started before versions existed pass none (the first). */
interface EvaluationArgs {
  organizationId: string;
  interviewId: string;
  version?: number;
}

/** Activities of the interview evaluation workflow, built from their dependencies. */
export function createEvaluationActivities({ recruiting, ai }: EvaluationDeps) {
  return {
    /**
     * Loads the transcript and the rubric of this version, asks the AI and stores what it said,
     * in one activity: the transcript, the candidate's name and the evaluation text never pass
     * through the workflow, whose history outlives an erasure (PRODUCT.md §8, §10). Recruiting
     * verifies the quotes and computes the overall score. A retry asks the AI again; storing is
     * idempotent.
     */
    async evaluateAndSave(args: EvaluationArgs): Promise<void> {
      const client = recruiting.forOrganization(args.organizationId);
      const version = args.version ?? 1;
      const input = await serviceCall(() => client.evaluations.input.query({ interviewId: args.interviewId, version }));
      const { rubric } = input;
      const outcome = rubric
        ? { kind: 'rubric' as const, output: await ai.scoreAgainstRubric({ ...input, rubric }), model: ai.model, promptVersion: ai.rubricPromptVersion }
        : { kind: 'legacy' as const, result: await ai.evaluateInterview(input), model: ai.model, promptVersion: ai.legacyPromptVersion };
      await serviceCall(() => client.evaluations.complete.mutate({ interviewId: args.interviewId, version, outcome }));
    },
    async saveEvaluationFailure(args: EvaluationArgs & { code: string; message: string }): Promise<void> {
      await serviceCall(() =>
        recruiting.forOrganization(args.organizationId).evaluations.fail.mutate({
          interviewId: args.interviewId,
          version: args.version ?? 1,
          error: { code: args.code, message: args.message.slice(0, 2000) },
          model: ai.model,
        }),
      );
    },
  };
}
export type EvaluationActivities = ReturnType<typeof createEvaluationActivities>;
