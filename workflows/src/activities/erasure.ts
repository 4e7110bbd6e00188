import { ApplicationFailure } from '@temporalio/activity';
import { AppError, appErrorFromClientError, explainingDatabaseRefusal, isTransientDatabaseError } from '@hireloop/platform';
import type { createIntegrationsClient } from '@hireloop/integrations/client';
import type { createRecruitingClient } from '@hireloop/recruiting/client';

export interface ErasureDeps {
  recruiting: ReturnType<typeof createRecruitingClient>;
  integrations: ReturnType<typeof createIntegrationsClient>;
  /** Voids the gateway's stored idempotent responses that name one of `ids` (gateway-retention.ts); null: the worker has no gateway role. */
  voidStoredResponses: ((ids: string[]) => Promise<number>) | null;
  /** How many of a person's related ids one call handles (ERASURE_PAGE_SIZE). */
  pageSize: number;
}

interface Person {
  organizationId: string;
  candidateId: string;
}

/**
 * What a failed call of an erasure step becomes for Temporal. Every step must happen, so the
 * activity options retry without limit (activity-options.ts `ERASURE_STEP`); this decides what
 * is worth retrying. Codes and messages are ours only (GET /tasks shows them: erasure-retry.ts):
 * - the service down, busy or unreachable, or a transient database error: retried with back-off;
 * - a refusal (its code and message kept) or a permanent failure (a database error that retrying
 *   does not mend, or a bug): retried as well for the first step (`refusals: 'retry'`: its task
 *   must leave `queued`), otherwise the end of the attempt, with what an operator does next.
 */
function stepFailure(err: unknown, service: string, candidateId: string, refusals: 'retry' | 'fail'): ApplicationFailure {
  const app = err instanceof AppError ? err : appErrorFromClientError(err);
  // A call that got no answer is service_unavailable (appErrorFromClientError); one answered 500 with no code is a bug.
  const passing = app ? app.code === 'service_unavailable' : isTransientDatabaseError(err);
  if (passing) return ApplicationFailure.retryable(`${service} is unavailable or busy; the step is retried with back-off.`, 'service_unavailable');
  const code = !app || app.code === 'internal_error' ? 'erasure_step_failed' : app.code;
  const reason = app && app.code !== 'internal_error' ? `${service} refused the step: ${app.message}` : (app?.message ?? `${service} answered an internal error (a bug, not a passing failure); its log has the details under this erasure's request id.`);
  if (refusals === 'retry') return ApplicationFailure.retryable(`${reason} The step is retried until it succeeds.`, code);
  return ApplicationFailure.nonRetryable(`${reason} Fix the cause, then DELETE /api/v1/candidates/${candidateId} again: a new attempt redoes every step.`, code);
}

async function step<T>(service: string, candidateId: string, refusals: 'retry' | 'fail', call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw stepFailure(err, service, candidateId, refusals);
  }
}

/**
 * Activities of the erasure workflow: each owning service scrubs its own schema. Inputs and
 * results are ids and counts only: they stay in the workflow's history after the person is gone.
 * A person's interviews and enrollments are paged through (`pageSize` ids a call), however many
 * there are: the workflow never holds their ids.
 */
export function createErasureActivities({ recruiting, integrations, voidStoredResponses, pageSize }: ErasureDeps) {
  /** The person's ids, a page at a time (at least one page, maybe empty; the candidate's own id is not in them). */
  async function* idPages({ organizationId, candidateId }: Person): AsyncGenerator<string[]> {
    let after: string | null = null;
    do {
      const page: { ids: string[]; next: string | null } = await step('Recruiting', candidateId, 'fail', () =>
        recruiting.forOrganization(organizationId).candidates.erasedIds.query({ id: candidateId, after, limit: pageSize }));
      yield page.ids;
      after = page.next;
    } while (after);
  }

  return {
    async beginErasure({ organizationId, candidateId }: Person): Promise<{ taskId: string }> {
      return step('Integrations', candidateId, 'retry', () => integrations.forOrganization(organizationId).erasure.begin.mutate({ candidateId }));
    },
    async scrubRecruiting({ organizationId, candidateId }: Person): Promise<{ interviews: number; enrollments: number; outbox: number }> {
      const total = { interviews: 0, enrollments: 0, outbox: 0 };
      let after: string | null = null;
      do {
        const page: { interviews: number; enrollments: number; outbox: number; next: string | null } = await step('Recruiting', candidateId, 'fail', () =>
          recruiting.forOrganization(organizationId).candidates.scrubErased.mutate({ id: candidateId, after, limit: pageSize }));
        total.interviews += page.interviews;
        total.enrollments += page.enrollments;
        total.outbox += page.outbox;
        after = page.next;
      } while (after);
      return total;
    },
    async scrubIntegrations(person: Person): Promise<{ events: number; outbox: number; excerpts: number; atsEvents: number; tasks: number }> {
      const total = { events: 0, outbox: 0, excerpts: 0, atsEvents: 0, tasks: 0 };
      for await (const ids of idPages(person)) {
        const page = await step('Integrations', person.candidateId, 'fail', () =>
          integrations.forOrganization(person.organizationId).erasure.scrub.mutate({ candidateId: person.candidateId, relatedIds: ids }));
        for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += page[key];
      }
      return total;
    },
    /**
     * The gateway step: stored idempotent responses that name one of the person's ids lose their
     * response (a retry with the same Idempotency-Key is 404, with another body 422).
     */
    async eraseStoredResponses(person: Person): Promise<{ storedResponses: number }> {
      if (!voidStoredResponses) {
        // Without the gateway's role an erasure cannot reach its stored responses: it fails rather than claim success.
        throw ApplicationFailure.nonRetryable('The worker has no GATEWAY_DATABASE_URL: stored idempotent responses cannot be erased. Set it, then DELETE the candidate again.', 'gateway_unreachable');
      }
      let storedResponses = 0;
      for await (const ids of idPages(person)) {
        storedResponses += await step('The gateway database', person.candidateId, 'fail', () => explainingDatabaseRefusal("The gateway's erasure step", () => voidStoredResponses([person.candidateId, ...ids])));
      }
      return { storedResponses };
    },
    async finishErasure({ organizationId, candidateId }: Person): Promise<{ taskId: string }> {
      return step('Integrations', candidateId, 'fail', () => integrations.forOrganization(organizationId).erasure.finish.mutate({ candidateId }));
    },
  };
}
export type ErasureActivities = ReturnType<typeof createErasureActivities>;
