import { sql } from '@hireloop/platform';
import type { Db } from '../db.js';

/**
 * The order of ATS events (docs/api.md, "AI tasks and ATS events"). An ATS sends its webhooks at
 * least once and in no promised order, so each event is applied only when it is the latest by
 * `occurredAt` about its subject: a candidate (`candidate.*`), or a candidate's application to a
 * position (`application.*`). An older event arriving after a newer one changes nothing and is
 * processed as `superseded`. Of two events with the same `occurredAt` about one application, a
 * rejection or a hire wins over one that would leave it open (ATS clocks often count whole
 * seconds); otherwise the later processed applies.
 */

export type ApplicationClosed = 'rejected' | 'hired';

export const candidateSubject = (candidateId: string) => `candidate:${candidateId}`;
export const applicationSubject = (candidateId: string, positionId: string) => `application:${candidateId}:${positionId}`;

/**
 * Records the event as the latest about its subject, unless a later one was applied before: true
 * when it is the latest (apply it). The mark's row stays locked until the caller's transaction
 * ends, so events about one subject are applied one at a time. `closedAs` is what an application
 * event leaves the application as: closed by a rejection or a hire, or open (null).
 */
export async function markLatest(trx: Db, mark: { organizationId: string; source: string; subject: string; candidateId: string; occurredAt: string; closedAs?: ApplicationClosed | null }): Promise<boolean> {
  const { rows } = await sql<{ latest: number }>`
    insert into recruiting.ats_sync_marks (organization_id, source, subject, candidate_id, occurred_at, closed_as)
    values (${mark.organizationId}, ${mark.source}, ${mark.subject}, ${mark.candidateId}, ${mark.occurredAt}::timestamptz, ${mark.closedAs ?? null})
    on conflict (organization_id, source, subject) do update
      set occurred_at = excluded.occurred_at, closed_as = excluded.closed_as
      where ats_sync_marks.occurred_at < excluded.occurred_at
         or (ats_sync_marks.occurred_at = excluded.occurred_at and (ats_sync_marks.closed_as is null or excluded.closed_as is not null))
    returning 1 as latest`.execute(trx);
  return rows.length > 0;
}
