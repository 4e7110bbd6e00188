import type { ExpressionBuilder } from 'kysely';
import type { InterviewStatus } from '@hireloop/contracts';
import type { InterviewsTable, RecruitingDB } from '../db.js';

/** Statuses an interview can still leave on its own clock: past `expires_at` they read `expired`. */
const OPEN: InterviewStatus[] = ['scheduled', 'in_progress'];

/**
 * The status as of now: an open interview past its expiry is `expired` even before the sweep
 * has written it, so no transition ever acts on a stale status.
 */
export function effectiveStatus(row: Pick<InterviewsTable, 'status' | 'expires_at'>, now = new Date()): InterviewStatus {
  if (OPEN.includes(row.status) && row.expires_at <= now) return 'expired';
  return row.status;
}

/** Whether the interview can still be taken: scheduled or in progress, and not past its expiry. */
export function isOpen(row: Pick<InterviewsTable, 'status' | 'expires_at'>, now = new Date()): boolean {
  return OPEN.includes(effectiveStatus(row, now));
}

/**
 * The `status=` list filter in SQL, on the same rule (PRODUCT.md §7: the status the client sees):
 * an overdue open interview is `expired` at once, and no longer `scheduled`/`in_progress`.
 */
export function hasEffectiveStatus(status: InterviewStatus) {
  return (eb: ExpressionBuilder<RecruitingDB & { i: InterviewsTable }, 'i'>) => {
    if (status === 'expired') return eb.or([eb('i.status', '=', 'expired'), eb.and([eb('i.status', 'in', OPEN), eb('i.expires_at', '<=', eb.fn<Date>('now'))])]);
    if (OPEN.includes(status)) return eb.and([eb('i.status', '=', status), eb('i.expires_at', '>', eb.fn<Date>('now'))]);
    return eb('i.status', '=', status);
  };
}
