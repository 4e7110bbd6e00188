import type { createIdentityClient } from '@hireloop/identity/client';
import type { createRecruitingClient } from '@hireloop/recruiting/client';

export interface RetentionDeps {
  identity: ReturnType<typeof createIdentityClient>;
  recruiting: ReturnType<typeof createRecruitingClient>;
}

/** Retention purges: each owning service deletes from its own schema, as its own database role. */
export function createRetentionActivities({ identity, recruiting }: RetentionDeps) {
  return {
    /** Relayed rows of recruiting's outboxes past OUTBOX_RETENTION_HOURS; answers and evaluation text past RETENTION_ANSWERS_DAYS. */
    async purgeRecruitingOutboxes() {
      return recruiting.system.retention.purge.mutate();
    },
    /** Console sessions that expired or were logged out. */
    async purgeIdentitySessions() {
      return identity.system.sessions.purge.mutate();
    },
  };
}
export type RetentionActivities = ReturnType<typeof createRetentionActivities>;
